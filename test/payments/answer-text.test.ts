// The GET by id's answer is remembered as the text it was sent as, and sent again while the
// versions it was made from are unchanged (src/modules/payments/answer-text.ts). Every change to the
// app, its creator, the price, its views or a member's role is answer-context.test.ts's; here: the
// text is the route's own serialization, a change to the payment itself, a price's expiry passing
// with nothing written, and the answers no other caller may read.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FakeClock } from "../helpers/clock.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { createPayment } from "../helpers/payments.ts";
import { apiKeyOf, createPrice } from "../helpers/prices.ts";

const clock = new FakeClock();
const fx = useTestApp({}, { now: clock.now });

const HOUR = 3_600_000;

async function newPayment(price: { id: string }) {
  return createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
    price_id: price.id,
    payment_provider: "card",
  });
}

const get = (paymentId: string, token = fx.tenants.owner.token) =>
  call(fx.app, "GET", `/payments/${fx.tenants.app.id}/${paymentId}`, { token });

test("the text sent again is the route's own, byte for byte, with its JSON type", async () => {
  const price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { amount: 12 });
  const payment = await newPayment(price);
  const first = await get(payment.id);
  const again = await get(payment.id);
  expectStatus(again, 200);
  assert.equal(again.text, first.text);
  assert.equal(again.headers["content-type"], "application/json; charset=utf-8");
  // The list serializes its payments with Fastify's own serializer from the same schema.
  const page = await call(fx.app, "GET", `/payments/${fx.tenants.app.id}?limit=1`, {
    token: fx.tenants.owner.token,
  });
  assert.equal(page.body[0].id, payment.id);
  assert.equal(page.text, `[${again.text}]`);
});

test("a change to the payment itself shows in the next answer", async () => {
  const price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { amount: 9 });
  const payment = await newPayment(price);
  assert.equal(expectStatus(await get(payment.id), 200).status, "pending");
  assert.equal(expectStatus(await get(payment.id), 200).cancelable, true, "remembered");
  const url = `/payments/${fx.tenants.app.id}/${payment.id}/cancel`;
  expectStatus(await call(fx.app, "POST", url, { token: fx.tenants.owner.token, body: {} }), 200);
  const after = expectStatus(await get(payment.id), 200);
  assert.equal(after.status, "cancelled");
  assert.equal(after.cancelable, false);
});

test("a price's expiry, passing with nothing written, shows in the next answer", async () => {
  const expiresAt = new Date(clock.now().getTime() + HOUR);
  const price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
    amount: 5,
    expires_at: expiresAt.toISOString(),
  });
  const payment = await newPayment(price);
  assert.equal(expectStatus(await get(payment.id), 200).price.expired, false);
  assert.equal(expectStatus(await get(payment.id), 200).price.expired, false, "remembered");
  clock.advance(2 * HOUR);
  try {
    assert.equal(expectStatus(await get(payment.id), 200).price.expired, true);
  } finally {
    clock.reset();
  }
});

test("a remembered answer is no other caller's", async () => {
  const price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { amount: 3 });
  const payment = await newPayment(price);
  expectStatus(await get(payment.id), 200);
  expectStatus(await get(payment.id), 200);
  assertProblem(await get(payment.id, fx.tenants.outsider.token), 404, "not_found");
  const otherKey = await apiKeyOf(fx.app, fx.tenants.outsider.token, fx.tenants.otherApp.id);
  assertProblem(await get(payment.id, otherKey), 404, "not_found");
  // The app's own key reads it, with a key's permissions rather than the owner's remembered ones.
  const owners = expectStatus(await get(payment.id), 200);
  const keys = expectStatus(await get(payment.id, await fx.key()), 200);
  assert.equal(keys.id, payment.id);
  assert.equal(owners.app.permissions.can_delete, true);
  assert.equal(keys.app.permissions.can_delete, false);
  assertProblem(
    await call(fx.app, "GET", `/payments/${fx.tenants.app.id}/${payment.id}`),
    401,
    "unauthenticated",
  );
});
