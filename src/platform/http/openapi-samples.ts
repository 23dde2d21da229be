import { camel, EXCLUDED, methodOf } from "./sdk-names.ts";

/**
 * Each operation's code samples (`x-codeSamples`: a curl call and the same call with the
 * TypeScript SDK), made from the finished document: the method, the path, the credential it takes,
 * its headers, its request body's example, and the SDK method the generator names for it
 * (sdk-names.ts). Redoc, Scalar and other renderers show `x-codeSamples`; Swagger UI does not, so
 * the copy it reads (/docs/json) has them in each description too (`withSamplesInDescriptions`).
 */

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}
interface Operation {
  operationId: string;
  tags?: string[];
  description?: string;
  security?: Record<string, unknown>[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema; example?: unknown }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  "x-codeSamples"?: CodeSample[];
}
export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

const PACKAGE = "@payments-backend/sdk";
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
// A literal key: a retry must send the same one, so a sample does not make a fresh one per run.
const IDEMPOTENCY_KEY = "8e0f7a3c-5b1d-4c2e-9f6a-2d4b7c1e0a93";

// Groups whose operations act as a person (a session), not as an app's API key (README, Roles).
const SESSION_GROUPS = new Set(["users", "members", "apiKeys"]);
// Operations a person does with a session: owners only, or an app whose keys are gone (deleted).
const SESSION_ONLY = new Set([
  "deleteApp",
  "listAuditLog",
  "getDeletedAppPayment",
  "refundDeletedAppPayment",
]);

type Credential = { env: string; option: "apiKey" | "token" } | undefined;

function credentialOf(operation: Operation, path: string): Credential {
  const security = operation.security;
  if (security && security.length === 0) return undefined;
  // Bearer only (no API key by HTTP Basic): a shopper's bid.
  if (security?.every((scheme) => Object.keys(scheme).every((name) => name === "bearer"))) {
    return { env: "SHOPPER_TOKEN", option: "token" };
  }
  const [group] = methodOf(operation);
  const ofApp = /\{(app_id|id)\}/.test(path);
  if (SESSION_GROUPS.has(group) || SESSION_ONLY.has(operation.operationId) || !ofApp) {
    return { env: "SESSION_TOKEN", option: "token" };
  }
  return { env: "API_KEY", option: "apiKey" };
}

const shellQuote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;
const isList = (operation: Operation) =>
  (operation.parameters ?? []).some((p) => p.in === "query" && p.name === "starting_after");
const headerParameters = (operation: Operation) =>
  (operation.parameters ?? []).filter((p) => p.in === "header" && p.name.toLowerCase() !== "idempotency-key");

function curlSample(baseUrl: string, method: string, path: string, operation: Operation): string {
  const url = baseUrl + path.replace(/\{(\w+)\}/g, (_, name: string) => `$${name.toUpperCase()}`);
  const verb = method === "get" ? "" : `-X ${method.toUpperCase()} `;
  const lines = [`curl ${verb}"${url}${isList(operation) ? "?limit=20" : ""}"`];
  const credential = credentialOf(operation, path);
  if (credential) lines.push(`-H "Authorization: Bearer $${credential.env}"`);
  for (const header of headerParameters(operation)) {
    lines.push(`-H "${header.name}: $${header.name.replace(/^x-/i, "").replaceAll("-", "_").toUpperCase()}"`);
  }
  if ((operation.parameters ?? []).some((p) => p.name === "Idempotency-Key")) {
    lines.push(`-H "Idempotency-Key: ${IDEMPOTENCY_KEY}"`);
  }
  const [type, media] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
  if (type === "application/json") {
    lines.push(`-H "Content-Type: application/json"`);
    lines.push(`-d ${shellQuote(JSON.stringify(media?.example ?? {}, null, 2))}`);
  } else if (type === "multipart/form-data") {
    lines.push(`-F "file=@document.png"`);
  } else if (type) {
    lines.push(
      `-H "Content-Type: ${type}"`,
      `--data-binary @${type.startsWith("image/") ? "image" : "body"}`,
    );
  }
  return lines.join(" \\\n  ");
}

/** The name a sample gives what an operation answers: its schema's name (`Payment` -> `payment`). */
function answerName(operation: Operation, list: boolean): string | undefined {
  const success = Object.entries(operation.responses ?? {}).find(([status]) => /^2\d\d$/.test(status));
  if (!success || success[0] === "204") return undefined;
  let schema = success[1].content?.["application/json"]?.schema;
  if (list && schema?.type === "array") schema = schema.items as Schema | undefined;
  if (list && schema?.properties)
    schema = ((schema.properties as Schema).data as Schema | undefined)?.items as Schema;
  const ref = typeof schema?.$ref === "string" ? schema.$ref.split("/").at(-1) : undefined;
  const name = ref ? ref.charAt(0).toLowerCase() + ref.slice(1) : list ? "item" : "answer";
  return name === "client" ? "answer" : name;
}

/** A JSON value as a TypeScript object literal: pretty, with plain keys unquoted. */
const objectLiteral = (value: unknown) =>
  JSON.stringify(value, null, 2).replace(/^(\s*)"([A-Za-z_$][\w$]*)":/gm, "$1$2:");

function sdkSample(baseUrl: string, path: string, operation: Operation): string {
  const credential = credentialOf(operation, path);
  const options = credential
    ? `{ baseUrl: "${baseUrl}", ${credential.option}: process.env.${credential.env} }`
    : `{ baseUrl: "${baseUrl}" }`;
  const head = `import { Client } from "${PACKAGE}";\n\nconst client = new Client(${options});\n`;
  const args = [...path.matchAll(/\{(\w+)\}/g)].map((match) => camel(match[1] as string));
  for (const header of headerParameters(operation)) args.push(camel(header.name.replace(/^x-/i, "")));
  const body = operation.requestBody?.content?.["application/json"];
  if (body) args.push(objectLiteral(body.example ?? {}));
  const [group, name] = methodOf(operation);
  const call = `client.${group}.${name}(${args.join(", ")})`;
  const list = isList(operation);
  const result = answerName(operation, list);
  if (list) return `${head}\nfor await (const ${result} of ${call}) {\n  console.log(${result});\n}`;
  if (!result) return `${head}\nawait ${call};`;
  return `${head}\nconst ${result} = await ${call};\nconsole.log(${result});`;
}

/** An operation the SDK has no method for (EXCLUDED): the same call with `fetch`, and why. */
function fetchSample(baseUrl: string, method: string, path: string, operation: Operation): string {
  const url = baseUrl + path.replace(/\{(\w+)\}/g, (_, name: string) => `\${${camel(name)}}`);
  const init = method === "get" ? "" : `, { method: "${method.toUpperCase()}" }`;
  return `// No SDK method: ${EXCLUDED[operation.operationId]}.\nconst response = await fetch(\`${url}\`${init});\nconsole.log(response.status, await response.text());`;
}

/** A receiver of one webhook event: its signature checked, its payload typed by `type`. */
function receiverSample(type: string): string {
  return [
    `import { verifyWebhook } from "${PACKAGE}";`,
    "",
    "// In your HTTP handler: the body exactly as received (text), the request's headers.",
    "const event = verifyWebhook(rawBody, request.headers, process.env.WEBHOOK_SECRET);",
    `if (event.type === "${type}") {`,
    "  console.log(event.id, event.data);",
    "}",
  ].join("\n");
}

/** Adds `x-codeSamples` to every operation of the document, and to every webhook (a receiver). */
export function addCodeSamples(doc: Schema, baseUrl: string): Schema {
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const typescript = EXCLUDED[operation.operationId]
        ? fetchSample(baseUrl, method, path, operation)
        : sdkSample(baseUrl, path, operation);
      operation["x-codeSamples"] = [
        { lang: "Shell", label: "curl", source: curlSample(baseUrl, method, path, operation) },
        {
          lang: "TypeScript",
          label: EXCLUDED[operation.operationId] ? "fetch" : "TypeScript SDK",
          source: typescript,
        },
      ];
    }
  }
  for (const [type, item] of Object.entries(
    (doc.webhooks ?? {}) as Record<string, Record<string, Operation>>,
  )) {
    const post = item.post;
    if (post)
      post["x-codeSamples"] = [{ lang: "TypeScript", label: "TypeScript SDK", source: receiverSample(type) }];
  }
  return doc;
}

const FENCES: Record<string, string> = { Shell: "sh", TypeScript: "ts" };

/**
 * The document as Swagger UI (/docs) reads it: each operation's samples appended to its
 * description as fenced code blocks, since Swagger UI ignores `x-codeSamples`.
 */
export function withSamplesInDescriptions(doc: Schema): Schema {
  const copy = structuredClone(doc);
  const sections = [copy.paths, copy.webhooks] as (Record<string, Record<string, Operation>> | undefined)[];
  for (const items of sections) {
    for (const item of Object.values(items ?? {})) {
      for (const operation of Object.values(item)) {
        const samples = operation["x-codeSamples"];
        if (!samples) continue;
        const blocks = samples.map(
          (sample) => `**${sample.label}**\n\n\`\`\`${FENCES[sample.lang] ?? ""}\n${sample.source}\n\`\`\``,
        );
        operation.description = [operation.description ?? "", ...blocks].filter(Boolean).join("\n\n");
      }
    }
  }
  return copy;
}
