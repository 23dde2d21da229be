// The OpenAPI document is what integrators generate clients from: it stays lint-clean under
// Redocly's recommended rules, every operation has a stable camelCase operationId, resources are
// named components, public routes ask for no credential, and Idempotency-Key is documented where
// it is honoured (docs/openapi.md).
import assert from "node:assert/strict";
import { test } from "node:test";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { lintDocument } from "../helpers/openapi-lint.ts";

type Operation = {
  operationId?: string;
  security?: unknown[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: object; example?: unknown }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

let doc: Doc;
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
const find = (method: string, path: string) => {
  const op = doc.paths[path]?.[method.toLowerCase()];
  assert.ok(op, `${method} ${path} is documented`);
  return op;
};

const fx = useTestApp(
  {},
  {
    tenants: false,
    async setUp() {
      doc = expectStatus(await call(fx.app, "GET", "/openapi.json"), 200);
    },
  },
);

test("Redocly's recommended rules: no error, at most the one known warning", async () => {
  const findings = await lintDocument(doc);
  const errors = findings.filter((f) => f.severity === "error");
  assert.deepEqual(errors, []);
  // The KYC widget's form posts answer 303 See Other once they have acted (the browser goes back
  // to the page): they have no 2XX by design, and say so with a documented 303.
  const redirects = (finding: { ruleId: string; location: string }) => {
    if (finding.ruleId !== "operation-2xx-response") return false;
    const [, path, method] = /^#\/paths\/([^/]+)\/([a-z]+)\/responses$/.exec(finding.location) ?? [];
    const responses = doc.paths[path?.replaceAll("~1", "/")]?.[method]?.responses ?? {};
    return "303" in responses;
  };
  // `/auctions/{app_id}/shoppers/{shopper_id}` and `/auctions/{app_id}/{auction_id}/bids` (or
  // `…/end`) both match `/auctions/x/shoppers/bids`; the router prefers the literal segment, and
  // auction ids never read `shoppers`. Any other ambiguity, or any other warning, fails here.
  const shoppersPath = (finding: { ruleId: string; message: string }) =>
    finding.ruleId === "no-ambiguous-paths" &&
    finding.message.includes("/auctions/{app_id}/shoppers/{shopper_id}");
  const warnings = findings.filter((f) => f.severity === "warn" && !redirects(f) && !shoppersPath(f));
  assert.equal(findings.filter(redirects).length, 4, "the widget's four form posts answer 303");
  assert.deepEqual(warnings, []);
});

test("every operation has a unique camelCase operationId", () => {
  const ids = operations().map(({ method, path, op }) => {
    assert.match(op.operationId ?? "", /^[a-z][A-Za-z0-9]+$/, `${method} ${path}`);
    return op.operationId;
  });
  assert.equal(new Set(ids).size, ids.length, "operationIds are unique");
  assert.equal(find("POST", "/payments/{app_id}").operationId, "createPayment");
  assert.equal(find("GET", "/payments/{app_id}").operationId, "listPayments");
});

test("resources are named components, used by reference", () => {
  for (const name of [
    "App",
    "Payment",
    "Price",
    "PriceItem",
    "Auction",
    "Bid",
    "Kyc",
    "Problem",
    "ValidationError",
  ]) {
    assert.ok(doc.components.schemas[name], `${name} is a component`);
  }
  const created = find("POST", "/payments/{app_id}").responses["201"].content?.["application/json"] as {
    schema: unknown;
  };
  assert.deepEqual(created.schema, { $ref: "#/components/schemas/Payment" });
});

test("public routes ask for no credential; the others do", () => {
  for (const [method, path] of [
    ["POST", "/auth/signup"],
    ["POST", "/auth/login"],
    ["GET", "/health"],
    ["GET", "/checkout/{price_id}"],
    ["GET", "/kyc/{edit_token}"],
  ]) {
    assert.deepEqual(find(method, path).security, [], `${method} ${path}`);
  }
  assert.equal(find("GET", "/payments/{app_id}").security, undefined, "the document's default applies");
  assert.ok(find("GET", "/payments/{app_id}").responses["401"], "a credentialed route documents 401");
});

test("Idempotency-Key is a header parameter where it is honoured", () => {
  const header = (op: Operation) =>
    op.parameters?.some((p) => p.in === "header" && p.name === "Idempotency-Key");
  assert.ok(header(find("POST", "/payments/{app_id}")));
  assert.ok(header(find("POST", "/payments/{app_id}/{payment_id}/confirm")));
  assert.ok(header(find("POST", "/auctions/{app_id}/{auction_id}/bids")), "a shopper's bid");
  assert.ok(!header(find("POST", "/auth/login")), "not on routes without a credential");
});

test("hosted pages answer text/html", () => {
  for (const path of ["/checkout/{price_id}", "/kyc/{edit_token}", "/a/{auction_id}"]) {
    assert.ok(find("GET", path).responses["200"].content?.["text/html"], path);
  }
});

test("every property, parameter and response header is described", () => {
  const schemas = doc.components.schemas as Record<string, { description?: string }>;
  const described = (schema: unknown) => {
    const node = schema as { description?: string; $ref?: string };
    if (node.description) return true;
    // A reference is described by its component (OpenAPI lists the component's description there).
    return node.$ref !== undefined && Boolean(schemas[node.$ref.split("/").at(-1) ?? ""]?.description);
  };
  const missing: string[] = [];
  const walk = (node: unknown, at: string) => {
    if (!node || typeof node !== "object") return;
    const value = node as Record<string, unknown>;
    const properties = value.properties as Record<string, unknown> | undefined;
    if (properties && typeof properties === "object" && !Array.isArray(properties)) {
      for (const [name, property] of Object.entries(properties)) {
        if (!described(property)) missing.push(`${at}/properties/${name}`);
      }
    }
    for (const [key, child] of Object.entries(value))
      if (key !== "examples" && key !== "example") walk(child, `${at}/${key}`);
  };
  for (const [name, schema] of Object.entries(schemas)) {
    if (!described(schema)) missing.push(`#/components/schemas/${name}`);
    walk(schema, `#/components/schemas/${name}`);
  }
  for (const { method, path, op } of operations()) {
    const at = `${method} ${path}`;
    for (const parameter of (op.parameters ?? []) as { name: string; in: string; description?: string }[]) {
      if (!parameter.description) missing.push(`${at} ${parameter.in} parameter ${parameter.name}`);
    }
    walk(op.requestBody, `${at} body`);
    for (const [status, answer] of Object.entries(op.responses)) {
      const headers = (answer as { headers?: Record<string, { description?: string }> }).headers ?? {};
      for (const [name, header] of Object.entries(headers)) {
        if (!header.description) missing.push(`${at} ${status} header ${name}`);
      }
      walk(answer.content, `${at} ${status}`);
    }
  }
  assert.deepEqual(missing, [], "undescribed");
  // The walk can fail: a property without a description is caught.
  const before = missing.length;
  walk({ properties: { undescribed: { type: "string" } } }, "control");
  assert.equal(missing.length, before + 1);
});

test("request bodies, successful answers and problems carry examples, each valid against its own schema", () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const examples: { at: string; schema: object; example: unknown }[] = [];
  const walk = (node: unknown, at: string) => {
    if (!node || typeof node !== "object") return;
    const value = node as Record<string, unknown>;
    // A media type's example (where the document puts a body schema's examples), or a schema's.
    if ("example" in value && value.schema) {
      examples.push({ at, schema: value.schema as object, example: value.example });
    }
    if (Array.isArray(value.examples) && (value.type || value.properties)) {
      for (const example of value.examples) examples.push({ at, schema: value, example });
    }
    for (const [key, child] of Object.entries(value))
      if (key !== "examples" && key !== "example") walk(child, `${at}/${key}`);
  };
  walk(doc.paths, "#/paths");
  walk(doc.components.schemas, "#/components/schemas");
  // Every JSON request body and every successful JSON answer shows one (Swagger UI fills it in).
  const without: string[] = [];
  for (const { method, path, op } of operations()) {
    const body = op.requestBody?.content["application/json"];
    if (body && body.example === undefined) without.push(`${method} ${path} request body`);
    for (const [status, answer] of Object.entries(op.responses)) {
      const media = answer.content?.["application/json"] as { example?: unknown } | undefined;
      if (status.startsWith("2") && media && media.example === undefined)
        without.push(`${method} ${path} ${status}`);
    }
  }
  assert.deepEqual(without, [], "without an example");
  const answerExample = (path: string) =>
    (find("GET", path).responses["200"].content as Record<string, { example: unknown }>)["application/json"]
      .example;
  assert.ok(Array.isArray(answerExample("/payments/{app_id}")), "a list's example is a list");
  assert.ok(
    examples.some((e) => e.at === "#/components/schemas/Problem"),
    "the problem",
  );
  for (const { at, schema, example } of examples) {
    const validate = ajv.compile({ ...schema, $id: undefined, components: doc.components });
    assert.ok(validate(example), `${at}: ${ajv.errorsText(validate.errors)}`);
  }
  // The check can fail: an example missing a required field is refused.
  const create = find("POST", "/payments/{app_id}").requestBody?.content["application/json"].schema;
  const validate = ajv.compile({
    ...create,
    components: doc.components,
  });
  assert.equal(validate({ payment_provider: "card" }), false);
});
