import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { sandboxIntents } from "../../src/platform/providers/payments/sandbox/tables.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { eventually } from "../helpers/kyc.ts";
import { CARDS, card, confirm, waitForStatus } from "../helpers/payments.ts";
import { Receiver } from "../helpers/webhooks.ts";

// Reconciliation on demand: a clean run says so; a refund made at the provider behind the books'
// back is found, listed with both figures and announced as `reconciliation.mismatch`.

const receiver = new Receiver();
const fx = useTestApp(
  { WEBHOOKS_ALLOW_LOOPBACK: "true" },
  {
    setUp: async () => {
      expectStatus(
        await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}`, {
          token: fx.tenants.owner.token,
          body: { url: await receiver.start(), events: ["reconciliation.*"] },
        }),
        201,
      );
    },
    tearDown: () => receiver.stop(),
  },
);

const api = async (method: string, url: string, body?: unknown) =>
  call(fx.app, method, url, { token: await fx.key(), body });

async function finishedRun() {
  const run = expectStatus(await api("POST", `/reconciliations/${fx.tenants.app.id}`), 201);
  assert.equal(run.status, "running");
  return eventually(async () => {
    const now = expectStatus(await api("GET", `/reconciliations/${fx.tenants.app.id}/${run.id}`), 200);
    return now.status === "running" ? undefined : now;
  });
}

describe("reconciliation", () => {
  test("clean when the books, the payments and the provider agree; a refund behind their back is a mismatch", async () => {
    const { app } = fx.tenants;
    const key = await fx.key();
    const price = expectStatus(
      await api("POST", `/prices/${app.id}`, { name: "Mug", amount: 12, currency: "usd" }),
      201,
    );
    const created = expectStatus(
      await api("POST", `/payments/${app.id}`, { price_id: price.id, payment_provider: "card" }),
      201,
    );
    expectStatus(await confirm(fx.app, key, app.id, created.id, card(CARDS.ok)), 200);
    await waitForStatus(fx.app, key, app.id, created.id, "paid");
    expectStatus(await api("POST", `/payments/${app.id}/${created.id}/refund`, { amount: 2.5 }), 200);
    // The refund job has made the refund at the provider: the books have its id.
    await eventually(async () => {
      const list = expectStatus(
        await api("GET", `/balance-transactions/${app.id}?payment_id=${created.id}&type=refund_settled`),
        200,
      );
      return list.length > 0 ? list : undefined;
    });

    const clean = await finishedRun();
    assert.equal(clean.status, "clean");
    assert.equal(clean.trigger, "api");
    assert.ok(clean.payments_checked >= 1);
    assert.deepEqual(clean.mismatches, []);

    // Someone refunds 1.00 more in the provider's own dashboard: the books never hear of it.
    const intentId = await intentOf(created.id);
    await fx.app.deps.paymentProviders.sandbox.refund(
      { intentId, amount: 100n },
      { idempotencyKey: "behind-the-books" },
    );
    const found = await finishedRun();
    assert.equal(found.status, "mismatched");
    const mismatch = found.mismatches.find((m: any) => m.kind === "provider_refunds");
    assert.deepEqual(
      { payment_id: mismatch.payment_id, ledger: mismatch.ledger, other: mismatch.other },
      { payment_id: created.id, ledger: "2.5", other: "3.5" },
    );
    const hook = await eventually(async () =>
      receiver.received.map((r) => JSON.parse(r.body)).find((e) => e.type === "reconciliation.mismatch"),
    );
    assert.equal(hook.data.id, found.id);
    assert.equal(hook.data.mismatches[0].kind, "provider_refunds");

    const runs = expectStatus(await api("GET", `/reconciliations/${app.id}`), 200);
    assert.deepEqual(
      runs.map((r: any) => r.id),
      [found.id, clean.id],
    );
    assertProblem(
      await call(fx.app, "POST", `/reconciliations/${app.id}`, { token: fx.tenants.outsider.token }),
      404,
      "not_found",
    );
  });
});

/** The payment's intent, read from the sandbox provider's own records (its transfer group is the payment). */
async function intentOf(paymentId: string): Promise<string> {
  const [row] = await fx.app.deps.db
    .select({ id: sandboxIntents.id })
    .from(sandboxIntents)
    .where(eq(sandboxIntents.transferGroup, paymentId));
  return row.id;
}
