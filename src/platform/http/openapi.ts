import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { RouteOptions } from "fastify";
import { type GuideSettings, loadGuides, renderGuides } from "./guides.ts";
import { addResponseHeaders } from "./openapi-headers.ts";
import { addDescriptions, readReference } from "./openapi-prose.ts";
import { addCodeSamples, withSamplesInDescriptions } from "./openapi-samples.ts";
import { addWebhooks } from "./openapi-webhooks.ts";
import { DEFAULT_COUNT_CAP } from "./pagination.ts";
import { parseRateLimits, type RateLimitSettings } from "./rate-limit.ts";
import type { Server } from "./server.ts";

/**
 * The OpenAPI document: built from the route schemas (`/openapi.json`, Swagger UI at `/docs`). What
 * every route shares is added here, once, so route files carry only what is theirs: the answers a
 * route can give because of what it is (validation, credentials, tenancy, conflicts), the
 * `Idempotency-Key` header where it is honoured, `security: []` on public routes, and HTML answers
 * for hosted pages. The prose is Markdown in the repository, read at start-up: the guides of
 * `info.description` (guides.ts) and each operation's description (`docs/reference/`); the code
 * samples are computed (openapi-samples.ts). Choices: docs/openapi.md.
 */

const TAGS = [
  ["system", "Health and readiness, for load balancers and orchestrators."],
  ["users", "Accounts and sessions: sign up, log in, log out, your profile."],
  ["apps", "Apps: the unit of tenancy. Fees, settings, deletion."],
  ["members", "People on an app and their roles; invitations by mail."],
  ["api-keys", "Keys for servers acting as an app."],
  ["wallets", "Chain accounts whose keys the service keeps sealed."],
  ["triggers", "Contract calls a payment runs once it is paid."],
  ["prices", "What a shopper pays, and what the payment then runs."],
  ["payments", "Payments of prices: create, confirm, cancel, refund, retry."],
  ["ledger", "The books: balances, money movements, CSV reports and reconciliations (docs/ledger.md)."],
  ["checkout", "The hosted checkout page and the calls it makes (no credential: a payment token)."],
  ["auctions", "Auctions whose bids are held on cards; the winner is charged at the end."],
  ["kyc", "Sellers of a marketplace app and their identity checks."],
  ["kyc widget", "The hosted page a seller fills in (its edit token is the credential)."],
  ["webhooks", "Signed event deliveries to your endpoints (Standard Webhooks)."],
  ["events", "Every event of the last 30 days, to list, read or stream live (server-sent events)."],
  ["solana", "Compressed-NFT trees and collections on Solana."],
  ["sandbox", "Sandbox mode only: the stand-in provider's pages, transfers and mail."],
] as const;

declare module "fastify" {
  interface FastifyInstance {
    /**
     * Documents the events a module sends to webhook endpoints: the document's `webhooks` section
     * (one entry per event type, its payload a named schema).
     */
    documentWebhooks(events: Record<string, Record<string, unknown>>): void;
  }
  interface FastifyContextConfig {
    /** The route honours an `Idempotency-Key` header without a session or API key (a shopper's bid). */
    idempotencyKey?: boolean;
    /** A page or stream for a browser rather than JSON: its 200 is documented with this type. */
    page?: "text/html" | "text/event-stream" | "text/csv";
    /** The example of this route's successful answer, where the schema's own would mislead (a new payment is pending). */
    answerExample?: unknown;
    /**
     * A hosted page's form post that answers 303 See Other once it has acted, sending the browser
     * on (back to the page, or to the provider): what the redirect means, documented as its answer.
     */
    redirect?: string;
    /**
     * The route reads its body as bytes of one of `types` (an image upload) rather than JSON: the
     * document lists each type as the request body's content, a binary string.
     */
    rawBody?: { types: readonly string[]; description: string };
  }
}

const PROBLEM = { "application/problem+json": { schema: { $ref: "Problem#" } } };
const HTML = { "text/html": { schema: { type: "string", description: "An HTML page" } } };

/** What each status means on our routes; a route lists the ones it can answer. */
const ERRORS = {
  400: "The request is malformed or a field is invalid (`validation_failed`); `errors` names each field",
  401: "No credential, or one that is invalid, expired or revoked (`unauthenticated`)",
  403: "The caller's role on the app does not allow this (`forbidden`)",
  404: "No such resource for this caller (`not_found`): another app's records are never shown",
  409: "The resource's state does not allow this, or the Idempotency-Key was used for another request",
  429: "Too many requests (`rate_limited`); `Retry-After` says when to try again",
} as const;

const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Any unique string (1-255 printable ASCII characters). The first answer is kept for 24 hours and " +
    "replayed for a repeat of the same request (header `idempotent-replayed: true`), so a retry after a " +
    "network failure never acts twice.",
  schema: { type: "string", minLength: 1, maxLength: 255 },
};

type Schema = Record<string, unknown>;

/** Adds to one route's schema what the document says about every route of its kind. */
function documentRoute(route: RouteOptions, honoured: Set<string>, answerExamples: Map<string, unknown>) {
  if (route.schema?.hide) return;
  const schema = (route.schema ?? {}) as Schema;
  route.schema = schema;
  const config = route.config ?? {};
  const methods = [route.method].flat();
  const response = (schema.response ?? {}) as Schema;
  const params = Object.keys(((schema.params as Schema | undefined)?.properties as Schema | undefined) ?? {});
  const hasInput = Boolean(schema.params || schema.querystring || schema.body || config.rawBody);
  const writes = methods.some((m) => m !== "GET" && m !== "HEAD");

  if (config.public && schema.security === undefined) schema.security = [];
  if (config.answerExample !== undefined)
    answerExamples.set(String(schema.operationId), config.answerExample);
  const page = config.page ?? (config.htmlErrors ? "text/html" : undefined);
  if (config.redirect) {
    // `type: "null"`: no body, so the document lists no content for it.
    response[303] ??= {
      type: "null",
      description: config.redirect,
      headers: {
        Location: { type: "string", format: "uri-reference", description: "Where the browser goes next" },
      },
    };
  }
  if (page && !config.redirect && !Object.keys(response).some((status) => status.startsWith("2"))) {
    const what =
      page === "text/html"
        ? "An HTML page"
        : page === "text/csv"
          ? "A CSV file (RFC 4180)"
          : "Server-sent events";
    response[200] = {
      description: what,
      content: { [page]: { schema: { type: "string", description: what } } },
    };
  }
  const errorContent = config.htmlErrors ? { ...HTML, ...PROBLEM } : PROBLEM;
  const statuses: (keyof typeof ERRORS)[] = [];
  if (hasInput) statuses.push(400);
  if (!config.public || (schema.security as unknown[]).length > 0) statuses.push(401);
  if (!config.public && params.includes("app_id")) statuses.push(403);
  if (params.length > 0) statuses.push(404);
  if (writes && !config.public) statuses.push(409);
  for (const status of statuses) response[status] ??= { description: ERRORS[status], content: errorContent };
  response["4XX"] ??= { description: "Another client error (RFC 9457 problem)", content: errorContent };
  response["5XX"] ??= {
    description: "Server error (RFC 9457 problem); it carries only the request id",
    content: errorContent,
  };
  schema.response = response;
  // Honoured on every POST with a credential (src/platform/http/idempotency.ts) and where a route
  // says so itself; documented, not validated here: the key's format is checked where it is used.
  if (methods.includes("POST") && (!config.public || config.idempotencyKey)) {
    honoured.add(route.url.replace(/:([A-Za-z_]+)/g, "{$1}"));
  }
}

/** Walks the finished document: every schema given a `title` becomes a named component. */
function nameSchemas(doc: Schema): Schema {
  const components = ((doc.components as Schema).schemas ?? {}) as Record<string, unknown>;
  const seen = new Map<string, string>();
  const hoist = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(hoist);
    if (node === null || typeof node !== "object") return node;
    const out: Schema = {};
    for (const [key, value] of Object.entries(node)) out[key] = hoist(value);
    const title = out.title;
    if (typeof title !== "string" || !/^[A-Z][A-Za-z]+$/.test(title) || !("type" in out || "anyOf" in out)) {
      return out;
    }
    // Examples are an annotation: where the schema is a whole answer they move to the media type
    // (so that occurrence has none), and that is no variant.
    const text = JSON.stringify({ ...out, examples: undefined });
    const earlier = seen.get(title);
    if (earlier === undefined) {
      seen.set(title, text);
      components[title] = out;
    } else if (earlier !== text) {
      return out; // A variant of the named schema (picked or widened): kept inline, never misnamed.
    } else if (out.examples !== undefined) {
      components[title] = out;
    }
    return { $ref: `#/components/schemas/${title}` };
  };
  for (const [name, schema] of Object.entries(components)) {
    // A shared schema's own parts (the problem's `errors` items), not the schema itself.
    const named = schema as Schema;
    components[name] = Object.fromEntries(Object.entries(named).map(([key, value]) => [key, hoist(value)]));
  }
  const paths = hoist(doc.paths) as Schema;
  (doc.components as Schema).schemas = components;
  return { ...doc, paths };
}

/**
 * The interface has `PATCH /auctions/{id}` (an auction's id) beside our `GET`/`POST
 * /auctions/{app_id}` (an app's id): one URL shape with two parameter names, which OpenAPI forbids.
 * The document lists all three under the interface's template, each parameter saying what it is;
 * the URLs are unchanged.
 */
const SHARED_TEMPLATES: Record<string, [template: string, from: string, to: string]> = {
  "/auctions/{app_id}": ["/auctions/{id}", "app_id", "id"],
};

function mergeSharedTemplates(doc: Schema): Schema {
  const paths = doc.paths as Record<string, Record<string, Schema>>;
  for (const [path, [template, from, to]] of Object.entries(SHARED_TEMPLATES)) {
    const operations = paths[path];
    if (!operations) continue;
    for (const operation of Object.values(operations)) {
      for (const parameter of (operation.parameters as Schema[] | undefined) ?? []) {
        if (parameter.in !== "path" || parameter.name !== from) continue;
        parameter.name = to;
        parameter.description = `The app's id (\`${from}\`)`;
      }
    }
    paths[template] = { ...operations, ...paths[template] };
    delete paths[path];
  }
  return doc;
}

/**
 * An example of a schema made of its parts' examples: its own, its component's, a list of one item's,
 * or an object of its properties' (undefined when a required property has none).
 */
function exampleOf(schema: Schema, components: Record<string, Schema>, depth = 0): unknown {
  if (depth > 10) return undefined;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (typeof schema.$ref === "string") {
    const component = components[schema.$ref.split("/").at(-1) ?? ""];
    return component && exampleOf(component, components, depth + 1);
  }
  if (schema.type === "array" && schema.items) {
    const item = exampleOf(schema.items as Schema, components, depth + 1);
    return item === undefined ? undefined : [item];
  }
  if (schema.type !== "object" || !schema.properties) return undefined;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const example: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties as Record<string, Schema>)) {
    const value = exampleOf(property, components, depth + 1);
    if (value !== undefined) example[name] = value;
    else if (required.has(name)) return undefined;
  }
  return example;
}

/**
 * Gives each JSON request body and successful answer an example Swagger UI shows and Redocly checks:
 * where its schema has none of its own (a list, a wrapper), one made of its parts' examples.
 */
function addExamples(doc: Schema, answerExamples: Map<string, unknown>): Schema {
  const components = (doc.components as Schema).schemas as Record<string, Schema>;
  for (const operations of Object.values(doc.paths as Record<string, Record<string, Schema>>)) {
    for (const operation of Object.values(operations)) {
      const answers = Object.entries((operation.responses as Record<string, Schema> | undefined) ?? {})
        .filter(([status]) => status.startsWith("2"))
        .map(([, answer]) => answer);
      for (const holder of [operation.requestBody as Schema | undefined, ...answers]) {
        const media = (holder?.content as Record<string, Schema> | undefined)?.["application/json"];
        const own = holder !== operation.requestBody && answerExamples.get(String(operation.operationId));
        if (media?.schema && own) media.example = own;
        if (!media?.schema || "example" in media || "examples" in media) continue;
        const example = exampleOf(media.schema as Schema, components);
        if (example !== undefined) media.example = example;
      }
    }
  }
  return doc;
}

/**
 * A body read as bytes (`config.rawBody`) is documented, not given to Fastify as a body schema,
 * which would validate the bytes as JSON: its types become the request body's content.
 */
function documentRawBody({ schema, url, route }: { schema: unknown; url: string; route: RouteOptions }) {
  const raw = route.config?.rawBody;
  if (!raw) return { schema: schema as Schema, url };
  const body = { type: "string", format: "binary", description: raw.description };
  return { schema: { ...(schema as Schema), consumes: [...raw.types], body }, url };
}

/** Adds the documented `Idempotency-Key` header parameter to the operations that honour it. */
function addIdempotencyHeaders(doc: Schema, honoured: Set<string>): Schema {
  for (const [path, operations] of Object.entries(doc.paths as Record<string, Schema>)) {
    const post = operations.post as Schema | undefined;
    if (!post || !honoured.has(path)) continue;
    post.parameters = [...((post.parameters as unknown[]) ?? []), IDEMPOTENCY_KEY];
  }
  return doc;
}

export interface DocumentOptions {
  publicUrl: string;
  version: string;
  /** The deployment's rate limits, listed in the guides (default: the built-in ones). */
  rateLimits?: RateLimitSettings;
  /** `LIST_COUNT_CAP`, named in the pagination guide. */
  listCountCap?: number;
}

/** The document at `/openapi.json` and Swagger UI at `/docs`; call before any route is added. */
export async function registerOpenApi(app: Server, options: DocumentOptions) {
  const honoured = new Set<string>();
  const answerExamples = new Map<string, unknown>();
  const webhooks: Parameters<Server["documentWebhooks"]>[] = [];
  app.decorate("documentWebhooks", (...args: Parameters<Server["documentWebhooks"]>) => {
    webhooks.push(args);
  });
  app.addHook("onRoute", (route) => documentRoute(route, honoured, answerExamples));
  // Read now, so a missing or malformed file stops the start rather than the first /openapi.json.
  const guides = loadGuides();
  const reference = readReference();
  const settings: GuideSettings = {
    publicUrl: options.publicUrl,
    rateLimits: options.rateLimits ?? (parseRateLimits(undefined) as RateLimitSettings),
    listCountCap: options.listCountCap ?? DEFAULT_COUNT_CAP,
  };
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Payments, wallets and seller-KYC API",
        version: options.version,
        // The guides replace it once the webhooks are known (transformObject).
        description: "Fiat payments that run smart-contract calls.",
        contact: { name: "The maintainers: open an issue in the project's repository" },
        license: { name: "MIT", identifier: "MIT" },
      },
      servers: [{ url: options.publicUrl }],
      tags: TAGS.map(([name, description]) => ({ name, description })),
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer" },
          basic: { type: "http", scheme: "basic" },
        },
      },
      security: [{ bearer: [] }, { basic: [] }],
    },
    transform: documentRawBody as never,
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (json.$id as string) ?? `def-${i}` },
    transformObject: (documentObject) => {
      const doc = ("openapiObject" in documentObject ? documentObject.openapiObject : {}) as Schema;
      const documented = addExamples(addIdempotencyHeaders(nameSchemas(doc), honoured), answerExamples);
      const done = mergeSharedTemplates(addResponseHeaders(addWebhooks(documented, webhooks)));
      const events = Object.assign({}, ...webhooks.map(([each]) => each));
      done.info = { ...(done.info as Schema), description: renderGuides(guides, settings, events) };
      return addCodeSamples(addDescriptions(done, reference), options.publicUrl) as never;
    },
  });
  // Swagger UI ignores `x-codeSamples`: its copy of the document (/docs/json) carries them in each
  // description. Made once: the document does not change after start-up.
  let forSwaggerUi: Schema | undefined;
  await app.register(swaggerUi, {
    routePrefix: "/docs",
    transformSpecificationClone: false,
    transformSpecification: (document) => {
      forSwaggerUi ??= withSamplesInDescriptions(document as Schema);
      return forSwaggerUi;
    },
    // No validator badge: it would send the document to validator.swagger.io. Operations are
    // grouped by tag in the document's order (no `tagsSorter`: the order is how the API is
    // learnt), every tag closed until clicked (`docExpansion: none`): with every tag open
    // (`list`), Swagger UI stopped rendering after the first tag once the document passed about
    // 130 operations, with no error. An operation shows its request body's and answers'
    // examples rather than their schemas.
    uiConfig: {
      deepLinking: true,
      validatorUrl: null,
      docExpansion: "none",
      defaultModelRendering: "example",
      defaultModelsExpandDepth: 0,
      filter: true,
      tryItOutEnabled: false,
    },
    // Swagger UI's own policy (scripts from this origin only), made stricter: never framed, and no
    // upgrade of asset requests, which would break a plain-http development server. Its React
    // code applies inline styles, so styles (never scripts) may be inline.
    staticCSP: true,
    transformStaticCSP: (header) =>
      header
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
        .replace("style-src 'self' https:", "style-src 'self' 'unsafe-inline'")
        .replace(" validator.swagger.io", "")
        .replace(/\s*upgrade-insecure-requests;?/, ""),
  });
}
