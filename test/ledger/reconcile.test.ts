import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { sandboxIntents } from "../../src/platform/providers/payments/sandbox/tables.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus } from "../helpers/http.ts";
import { eventually } from "../helpers/kyc.ts";
import { CARDS, card, confirm, waitForStatus } from "../helpers/payments.ts";
import { apiKeyOf } from "../helpers/prices.ts";
import { evmTrigger } from "../helpers/triggers.ts";
import { Receiver } from "../helpers/webhooks.ts";

// Reconciliation on demand: a clean run says so; a refund made at the provider behind the books'
// back is found, listed with both figures and announced as `reconciliation.mismatch`; a contract
// call the chain refused, its hold released, is no mismatch.

const receiver = new Receiver();
const fx = useTestApp(
  { WEBHOOKS_ALLOW_LOOPBACK: "true", EVM_TESTNET_CONFIRMATIONS: "2", EVM_TESTNET_BLOCK_SECONDS: "0.2" },
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

async function finishedRun(appId = fx.tenants.app.id, token?: string) {
  const as = token ?? (await fx.key());
  const run = expectStatus(await call(fx.app, "POST", `/reconciliations/${appId}`, { token: as }), 201);
  assert.equal(run.status, "running");
  return eventually(async () => {
    const now = expectStatus(
      await call(fx.app, "GET", `/reconciliations/${appId}/${run.id}`, { token: as }),
      200,
    );
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

describe("reconciliation of contract calls", () => {
  test("a call the chain reverted, its card released, is accounted for: the run is clean", async () => {
    // An app of its own: the test above leaves its app's books mismatched on purpose.
    const owner = fx.tenants.owner.token;
    const app = await createApp(fx.app, owner, { name: "Minter shop" });
    const key = await apiKeyOf(fx.app, owner, app.id);
    const as = (method: string, url: string, body?: unknown) =>
      call(fx.app, method, url, { token: key, body });
    const wallet = expectStatus(await as("POST", `/wallets/${app.id}`, { name: "Minter", type: "evm" }), 201);
    const trigger = expectStatus(await as("POST", `/triggers/${app.id}`, evmTrigger(wallet.id)), 201);
    const price = expectStatus(
      await as("POST", `/prices/${app.id}`, {
        name: "Minted ticket",
        amount: 15,
        currency: "usd",
        trigger_id: trigger.id,
        chain: "evm",
      }),
      201,
    );
    // The sandbox chain reverts a call whose memo says so (docs/chains.md, "Sandbox adapter").
    const input = {
      receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      quantity: 1,
      order_id: "o1 sandbox:revert",
    };
    const created = expectStatus(
      await as("POST", `/payments/${app.id}`, {
        price_id: price.id,
        payment_provider: "card",
        trigger_data_input: { params_data_input: input },
      }),
      201,
    );
    expectStatus(await confirm(fx.app, key, app.id, created.id, card(CARDS.ok)), 200);
    const ended = await waitForStatus(fx.app, key, app.id, created.id, "cancelled");
    assert.ok(ended.transaction_id, "the call was sent");
    assert.equal(ended.transaction_response.error.step, "chain");

    const run = await finishedRun(app.id, key);
    assert.deepEqual(run.mismatches, []);
    assert.equal(run.status, "clean");
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
