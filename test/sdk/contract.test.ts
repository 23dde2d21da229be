// The error contract in the document, as the SDK reads it: `Problem.code` is the one list of codes,
// the headers the service answers are declared where it answers them, a limited operation documents
// its 429, and a real 429 reaches the SDK as a RateLimitError that says when to come back.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Client, RateLimitError } from "../../sdk/src/index.ts";
import { ERROR_STATUS } from "../../src/platform/http/errors.ts";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp } from "../helpers/browser.ts";

type Json = Record<string, any>;
let t: TestApp;
let base: string;
let doc: Json;

before(async () => {
  ({ t, base } = await buildServedApp({ RATE_LIMITS: "signup_per_ip=1/3600" }));
  doc = t.app.swagger() as Json;
});
after(() => t?.close());

const operations = () =>
  Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, op]) => ({ path, method, op: op as Json })),
  );

test("Problem.code is an enum of exactly the service's error codes", () => {
  const code = doc.components.schemas.Problem.properties.code;
  assert.deepEqual([...code.enum].sort(), Object.keys(ERROR_STATUS).sort());
});

test("answers declare x-request-id; idempotent POSTs idempotent-replayed; lists Link and X-Total-Count", () => {
  for (const { path, method, op } of operations()) {
    const idempotent = (op.parameters ?? []).some((p: Json) => p.name === "Idempotency-Key");
    const list = (op.parameters ?? []).some((p: Json) => p.name === "starting_after");
    for (const [status, answer] of Object.entries(op.responses as Json)) {
      const where = `${method.toUpperCase()} ${path} ${status}`;
      const headers = (answer as Json).headers ?? {};
      assert.ok(headers["x-request-id"], `${where} declares x-request-id`);
      if (status.startsWith("2") && idempotent) assert.ok(headers["idempotent-replayed"], where);
      if (status.startsWith("2") && list) assert.ok(headers.Link && headers["X-Total-Count"], where);
      if (status === "429") assert.ok(headers["Retry-After"], `${where} declares Retry-After`);
    }
  }
});

test("every rate-limited operation documents its 429; every POST with a credential takes Idempotency-Key", () => {
  const byId = new Map(operations().map((o) => [o.op.operationId, o]));
  for (const id of ["signUp", "logIn", "createCheckoutPayment", "sendShopperCode", "createShopperSession"]) {
    assert.ok(byId.get(id)?.op.responses["429"], `${id} documents 429`);
  }
  for (const { path, method, op } of operations()) {
    if (method !== "post" || (op.security && op.security.length === 0)) continue;
    assert.ok(
      (op.parameters ?? []).some((p: Json) => p.name === "Idempotency-Key"),
      `POST ${path} declares Idempotency-Key`,
    );
  }
});

test("a real 429 is a RateLimitError with Retry-After, status, code and request id", async () => {
  const signUp = (name: string) =>
    new Client({ baseUrl: base, maxRetries: 0 }).auth.signUp({
      email: `${name}@example.com`,
      password: "correct horse battery staple",
      username: name,
      first_name: "Rate",
      last_name: "Limited",
    });
  const first = await signUp(`rl${Date.now().toString(36)}a`);
  assert.match(first.lastResponse.requestId ?? "", /^req_/);
  await assert.rejects(signUp(`rl${Date.now().toString(36)}b`), (error: unknown) => {
    assert.ok(error instanceof RateLimitError);
    assert.equal(error.status, 429);
    assert.equal(error.code, "rate_limited");
    assert.ok((error.retryAfterSeconds ?? 0) > 0, "Retry-After says when");
    assert.match(error.requestId ?? "", /^req_/);
    return true;
  });
});
