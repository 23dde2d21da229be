// GET /payments/{app_id}/{payment_id}/events: a payment's status changes, oldest first, as the
// other lists are answered (a bare array with X-Total-Count and Link).
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

let price: any;
const fx = useTestApp(
  {},
  {
    async setUp() {
      price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
        amount: 20,
        currency: "usd",
      });
    },
  },
);

const events = (appId: string, paymentId: string, token: string | undefined, query = "") =>
  call(fx.app, "GET", `/payments/${appId}/${paymentId}/events${query}`, { token });

test("a payment paid with the 4242 card reads pending -> hold -> paid, who moved it and when", async () => {
  const created = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
    price_id: price.id,
    payment_provider: "card",
  });
  const opened = expectStatus(await events(fx.tenants.app.id, created.id, fx.tenants.developer.token), 200);
  assert.equal(opened.length, 1);
  assert.equal(opened[0].from_status, null);
  assert.equal(opened[0].to_status, "pending");
  assert.equal(opened[0].actor, `user:${fx.tenants.owner.user.id}`);

  expectStatus(
    await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, created.id, card(CARDS.ok)),
    200,
  );
  await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, created.id, "paid");

  const answer = await events(fx.tenants.app.id, created.id, fx.tenants.owner.token);
  const timeline = expectStatus(answer, 200);
  assert.deepEqual(
    timeline.map((e: any) => [e.from_status, e.to_status]),
    [
      [null, "pending"],
      ["pending", "hold"],
      ["hold", "paid"],
    ],
  );
  for (const event of timeline) {
    assert.match(event.id, /^pev_/);
    assert.equal(event.payment_id, created.id);
    assert.ok(typeof event.actor === "string" && event.actor.length > 0);
    assert.ok(event.reason === null || typeof event.reason === "string");
  }
  assert.equal(timeline[2].actor, "system", "the capture is the service's own job");
  const times = timeline.map((e: any) => Date.parse(e.created_at));
  assert.deepEqual(
    times,
    [...times].sort((a, b) => a - b),
    "oldest first",
  );
  assert.equal(answer.headers["x-total-count"], "3");

  // Paged by cursor like every list: the page after the first event holds the other two.
  const rest = expectStatus(
    await events(fx.tenants.app.id, created.id, fx.tenants.owner.token, `?starting_after=${timeline[0].id}`),
    200,
  );
  assert.deepEqual(
    rest.map((e: any) => e.id),
    timeline.slice(1).map((e: any) => e.id),
  );
});

test("another app's payment is 404 both ways; no credential is 401", async () => {
  const created = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
    price_id: price.id,
    payment_provider: "card",
  });
  assertProblem(await events(fx.tenants.app.id, created.id, fx.tenants.outsider.token), 404, "not_found");
  assertProblem(
    await events(fx.tenants.otherApp.id, created.id, fx.tenants.outsider.token),
    404,
    "not_found",
  );
  assertProblem(await events(fx.tenants.app.id, "pay_unknown", fx.tenants.owner.token), 404, "not_found");
  assertProblem(await events(fx.tenants.app.id, created.id, undefined), 401, "unauthenticated");
});
