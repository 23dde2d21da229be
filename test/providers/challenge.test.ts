import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";

const fx = useTestApp({}, { tenants: false });
let n = 0;

async function challenged() {
  const sandbox = fx.app.deps.paymentProviders.sandbox;
  const intent = await sandbox.createIntent(
    { amount: 990n, currency: "usd", method: "card" },
    { idempotencyKey: `c-${++n}` },
  );
  const pending = await sandbox.confirmIntent(
    intent.id,
    {
      paymentMethod: { type: "card", number: "4000002760003184", expMonth: 1, expYear: 2099, cvc: "123" },
      returnUrl: "http://127.0.0.1:3000/checkout/price_1/return",
    },
    { idempotencyKey: `c-${++n}` },
  );
  assert.equal(pending.status, "requires_action");
  // The next action points at this server's own sandbox page.
  assert.equal(new URL(pending.nextAction!.url).pathname, `/sandbox/3ds/${intent.id}`);
  return intent.id;
}

test("the challenge page is served without a credential and passing it holds the card", async () => {
  const id = await challenged();
  const page = await call(fx.app, "GET", `/sandbox/3ds/${id}`);
  assert.equal(page.status, 200);
  assert.match(String(page.headers["content-type"]), /text\/html/);
  assert.match(page.text, /Complete authentication/);
  // Dressed as the checkout it interrupts (the hosted pages' shared layout), under the same strict
  // policy: its one script runs by the response's nonce, never inline at large.
  assert.match(page.text, /<div class="card">/);
  const policy = String(page.headers["content-security-policy"]);
  assert.match(policy, /script-src 'nonce-[^']+'/);
  assert.doesNotMatch(policy, /unsafe-inline/);
  const passed = expectStatus(
    await call(fx.app, "POST", `/sandbox/3ds/${id}`, { body: { outcome: "pass" } }),
    200,
  );
  assert.deepEqual(passed, {
    id,
    status: "requires_capture",
    return_url: "http://127.0.0.1:3000/checkout/price_1/return",
  });
  // Answered once: the step is over.
  assertProblem(
    await call(fx.app, "POST", `/sandbox/3ds/${id}`, { body: { outcome: "pass" } }),
    409,
    "invalid_state_transition",
  );
});

test("failing the challenge leaves the intent payable with another card", async () => {
  const id = await challenged();
  const failed = expectStatus(
    await call(fx.app, "POST", `/sandbox/3ds/${id}`, { body: { outcome: "fail" } }),
    200,
  );
  assert.equal(failed.status, "requires_payment_method");
});

test("bad ids, unknown intents and bad outcomes are refused", async () => {
  assertProblem(await call(fx.app, "GET", "/sandbox/3ds/pi_<script>"), 400, "validation_failed");
  assertProblem(await call(fx.app, "GET", `/sandbox/3ds/pi_${"0".repeat(26)}`), 404, "not_found");
  const id = await challenged();
  assertProblem(
    await call(fx.app, "POST", `/sandbox/3ds/${id}`, { body: { outcome: "maybe" } }),
    400,
    "validation_failed",
  );
  assertProblem(
    await call(fx.app, "POST", `/sandbox/3ds/${id}`, { body: { outcome: "pass", extra: 1 } }),
    400,
    "validation_failed",
  );
});
