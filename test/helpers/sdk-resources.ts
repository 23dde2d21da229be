// Writes the SDK's resource groups (sdk/src/resources.ts) from the OpenAPI document's operations:
// one method per operationId, named by its tag and verb, each path written once (in OPERATIONS).
// Operations an integrator's program does not call (hosted HTML pages, their form posts, the
// providers' own callbacks, a browser's event stream) are listed in EXCLUDED with the reason.
import { fileURLToPath } from "node:url";

export const SDK_RESOURCES_FILE = fileURLToPath(new URL("../../sdk/src/resources.ts", import.meta.url));

/** operationId -> why the SDK has no method for it. test/sdk/coverage.test.ts reads this list. */
export const EXCLUDED: Record<string, string> = {
  getInvitationPage: "an HTML page for people",
  getSandbox3dsPage: "an HTML page for people",
  getSandboxInboxPage: "an HTML page for people",
  getCheckoutPage: "an HTML page for people",
  getAuctionPage: "an HTML page for people",
  getKycWidget: "an HTML page for people",
  submitKycDetails: "the KYC page's own form post (answers a 303 redirect)",
  submitKycBankAccount: "the KYC page's own form post (answers a 303 redirect)",
  startKycOnboarding: "the KYC page's own form post (answers a 303 redirect)",
  uploadKycDocument: "the KYC page's own form post (answers a 303 redirect)",
  receiveProviderWebhook: "called by payment providers, not by integrators",
  streamAuctionEvents: "the public auction page's browser event stream (EventSource)",
  streamEvents:
    "hand-written: `client.events.stream()` reads the server-sent events (sdk/src/event-stream.ts)",
};

/** Method names kept as the hand-written SDK named them (and as people read them). */
const NAMES: Record<string, string> = {
  signUp: "auth.signUp",
  logIn: "auth.logIn",
  logOut: "auth.logOut",
  getMe: "users.me",
  acceptInvitation: "members.accept",
  previewPriceItem: "prices.previewPriceItem",
  listPaymentEvents: "payments.events",
  listWebhookDeliveries: "webhooks.listDeliveries",
  replayWebhookDelivery: "webhooks.replay",
  sendWebhookTestEvent: "webhooks.sendTest",
  rotateWebhookSecret: "webhooks.rotateSecret",
};

/** The noun a group's operationIds repeat, dropped from its method names (`createPayment` -> `create`). */
const NOUNS: Record<string, string> = {
  apps: "App",
  members: "Member",
  apiKeys: "ApiKey",
  wallets: "Wallet",
  triggers: "Trigger",
  webhooks: "WebhookEndpoint",
  sandbox: "Sandbox",
  prices: "Price",
  payments: "Payment",
  checkout: "Checkout",
  auctions: "Auction",
  kyc: "Kyc",
  events: "Event",
};

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}
interface Operation {
  operationId: string;
  summary?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> };
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
}

const camel = (name: string) => name.replace(/[-_ ]+(\w)/g, (_, c: string) => c.toUpperCase());

/** Where an operation lives: `group.method`. */
export function methodOf(operation: Operation): [string, string] {
  const named = NAMES[operation.operationId];
  if (named) return named.split(".") as [string, string];
  const group = camel(operation.tags?.[0] ?? "misc");
  const noun = NOUNS[group];
  const id = operation.operationId;
  const verb = /^[a-z0-9]+/.exec(id)?.[0] ?? id;
  let rest = id.slice(verb.length);
  if (noun && rest.startsWith(noun)) {
    rest = rest.slice(noun.length).replace(/^(s|es)(?=[A-Z]|$)/, "");
  }
  return [group, verb + rest];
}

function successOf(operation: Operation) {
  const code = Object.keys(operation.responses).find((c) => /^2\d\d$/.test(c));
  return code ? operation.responses[code] : undefined;
}

function pageKind(operation: Operation): "array" | "envelope" | undefined {
  if (!operation.parameters?.some((p) => p.in === "query" && p.name === "starting_after")) return undefined;
  const schema = successOf(operation)?.content?.["application/json"]?.schema as Json | undefined;
  return schema?.type === "array" ? "array" : "envelope";
}

const comment = (text: string | undefined, indent: string) =>
  text ? `${indent}/** ${text.replace(/\*\//g, "*\\/")} */\n` : "";

/** The source of sdk/src/resources.ts for a document. */
export function sdkResources(doc: { paths: Record<string, Record<string, unknown>> }): string {
  const table: string[] = [];
  const groups = new Map<string, string[]>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, value] of Object.entries(item)) {
      const operation = value as Operation;
      if (!operation?.operationId || EXCLUDED[operation.operationId]) continue;
      const id = operation.operationId;
      const params = operation.parameters ?? [];
      const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
      const headers = params.filter((p) => p.in === "header" && p.name.toLowerCase() !== "idempotency-key");
      const idempotent = params.some((p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key");
      const query = params.filter((p) => p.in === "query");
      const body = operation.requestBody?.content?.["application/json"];
      const bodyRequired = Boolean(
        body && ((body.schema as Json | undefined)?.required as unknown[] | undefined)?.length,
      );
      const page = pageKind(operation);
      table.push(
        `  ${id}: { method: "${method.toUpperCase()}", path: "${path}"${idempotent ? ", idempotent: true" : ""}${
          body ? ", body: true" : ""
        }${page ? `, page: "${page}"` : ""}${
          headers.length ? `, headers: [${headers.map((h) => `"${h.name.toLowerCase()}"`).join(", ")}]` : ""
        } },`,
      );
      const args: string[] = [];
      const pathArgs = pathParams.map((name) => [name, camel(name)] as const);
      for (const [, arg] of pathArgs) args.push(`${arg}: string`);
      const headerArgs = headers.map(
        (h) => [h.name.toLowerCase(), camel(h.name.replace(/^x-/i, ""))] as const,
      );
      for (const [, arg] of headerArgs) args.push(`${arg}: string`);
      if (body) args.push(`body${bodyRequired ? "" : "?"}: BodyOf<"${id}">`);
      if (query.length) args.push(`query${query.some((q) => q.required) ? "" : "?"}: QueryOf<"${id}">`);
      args.push("options?: RequestOptions");
      const input = [
        `params: {${pathArgs.length ? ` ${pathArgs.map(([name, arg]) => (name === arg ? name : `${name}: ${arg}`)).join(", ")} ` : ""}}`,
        body ? `body: body ?? {}` : "",
        query.length ? "query" : "",
        headerArgs.length
          ? `headers: { ${headerArgs.map(([name, arg]) => `"${name}": ${arg}`).join(", ")} }`
          : "",
      ]
        .filter(Boolean)
        .join(", ");
      const [group, name] = methodOf(operation);
      const call = page
        ? `${name}: (${args.join(", ")}): List<ItemOf<"${id}">> =>\n        t.list("${id}", { ${input} }, options),`
        : `${name}: (${args.join(", ")}): Promise<Answered<"${id}">> =>\n        t.call("${id}", { ${input} }, options),`;
      const list = groups.get(group) ?? [];
      list.push(`${comment(operation.summary, "      ")}      ${call}`);
      groups.set(group, list);
    }
  }
  const body = [...groups]
    .map(([group, methods]) => `    ${group}: {\n${methods.join("\n")}\n    },`)
    .join("\n");
  return `// Generated by \`npm run sdk:generate\` from the service's OpenAPI document: do not edit.
// test/sdk/types.test.ts fails when this file no longer matches the document.
/* biome-ignore-all lint: generated */
import type { RequestOptions } from "./http.ts";
import type { List } from "./paging.ts";
import type { Answered, BodyOf, ItemOf, QueryOf, Transport } from "./operation-types.ts";

/** Every operation the SDK calls: its method and path, written once. */
export const OPERATIONS = {
${table.join("\n")}
} as const;

/** The resource groups, one method per operation. */
export function resources(t: Transport) {
  return {
${body}
  };
}

export type Resources = ReturnType<typeof resources>;
`;
}
