// A payment with nothing between its hold and its capture (no contract call, no auction, no seller
// to pay) is settled by the authorize job that held it: no `payments.settle` job is queued, and
// the payment still reads pending -> hold -> paid, announced to the app's webhooks. Retrying that
// job after the hold committed (what pg-boss does after a crash) is test/payments/crash.test.ts's.
import assert from "node:assert/strict";
import { test } from "node:test";
import { sql } from "drizzle-orm";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { Receiver } from "../helpers/webhooks.ts";

let price: any;
const fx = useTestApp(
  { WEBHOOKS_ALLOW_LOOPBACK: "true" },
  {
    async setUp() {
      price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
        amount: 20,
        currency: "usd",
      });
    },
  },
);

/** The pg-boss jobs of a payment, by queue name. */
async function jobsOf(paymentId: string): Promise<string[]> {
  const result = await fx.app.deps.db.execute(
    sql`select name from pgboss.job where data->>'paymentId' = ${paymentId} order by created_on`,
  );
  return (((result as { rows?: unknown[] }).rows ?? result) as { name: string }[]).map((job) => job.name);
}

async function paidByCard() {
  const { owner, app } = fx.tenants;
  const created = await createPayment(fx.app, owner.token, app.id, {
    price_id: price.id,
    payment_provider: "card",
  });
  expectStatus(await confirm(fx.app, owner.token, app.id, created.id, card(CARDS.ok)), 200);
  const paid = await waitForStatus(fx.app, owner.token, app.id, created.id, "paid");
  const moves = expectStatus(
    await call(fx.app, "GET", `/payments/${app.id}/${created.id}/events`, { token: owner.token }),
    200,
  ).map(
    (event: { from_status: string | null; to_status: string }) => `${event.from_status}->${event.to_status}`,
  );
  return { paid, moves };
}

test("paid by its authorize job: captured, pending -> hold -> paid, and no settle job", async () => {
  const { paid, moves } = await paidByCard();
  assert.deepEqual(moves, ["null->pending", "pending->hold", "hold->paid"]);
  assert.equal(paid.transaction_response.error, null);
  const captures = expectStatus(
    await call(
      fx.app,
      "GET",
      `/balance-transactions/${fx.tenants.app.id}?payment_id=${paid.id}&type=capture`,
      {
        token: fx.tenants.owner.token,
      },
    ),
    200,
  );
  assert.ok(captures.length > 0, "the capture is in the books");
  assert.deepEqual(await jobsOf(paid.id), ["payments.authorize"]);
});

test("the same with a webhook endpoint listening (the hold recorded on the locked row): both moves announced", async () => {
  const receiver = new Receiver();
  try {
    expectStatus(
      await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: { url: await receiver.start(), events: ["payment.hold", "payment.paid"] },
      }),
      201,
    );
    const { paid, moves } = await paidByCard();
    assert.deepEqual(moves, ["null->pending", "pending->hold", "hold->paid"]);
    const announced = await eventually(async () => {
      const types = receiver.received
        .map((r) => JSON.parse(r.body))
        .filter((event) => event.data.id === paid.id)
        .map((event) => event.type);
      return types.length === 2 ? types : undefined;
    });
    assert.deepEqual(announced.sort(), ["payment.hold", "payment.paid"]);
    assert.deepEqual(await jobsOf(paid.id), ["payments.authorize"]);
  } finally {
    await receiver.stop();
  }
});
