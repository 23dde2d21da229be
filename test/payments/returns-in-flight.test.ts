import assert from "node:assert/strict";
import { test } from "node:test";
import { FakeClock } from "../helpers/clock.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { bank, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { evmTrigger } from "../helpers/triggers.ts";

// A bank debit its bank takes back while a later step is still under way (found by the
// simulation, docs/reliability.md): a refund the provider can no longer make, and a contract call
// already out. The sandbox's returning account (000111111113) clears 5 s of the sandbox's clock
// after the provider takes it and is returned 5 s after that; the clock here stands still unless
// moved, and so does the sandbox chain, which reads it.

const clock = new FakeClock(new Date("2026-12-01T10:00:00Z"));
const fx = useTestApp(
  // A `slow` call confirms a block every 2 s of the clock, and needs 3.
  { EVM_TESTNET_CONFIRMATIONS: "3", EVM_TESTNET_BLOCK_SECONDS: "0.2" },
  { now: clock.now },
);

const api = (method: string, url: string, body?: unknown) =>
  call(fx.app, method, url, { token: fx.tenants.owner.token, body });

/**
 * A bank debit from the sandbox's returning account, for `priceId`, confirmed and then cleared: the
 * clock is moved past its settlement once the provider has it (asked of the provider itself, as
 * the sync job asks it). Its return is then due 5 s of the clock later.
 */
async function clearedDebit(priceId: string, body: Record<string, unknown> = {}) {
  const { app } = fx.tenants;
  const token = fx.tenants.owner.token;
  const payment = await createPayment(fx.app, token, app.id, {
    price_id: priceId,
    payment_provider: "us_bank_account",
    ...body,
  });
  expectStatus(await confirm(fx.app, token, app.id, payment.id, bank("000111111113")), 200);
  await eventually(async () => {
    const [intent] = await fx.app.deps.paymentProviders.sandbox.intentsOfPayment(payment.id);
    return intent?.status === "processing" ? intent : undefined;
  });
  clock.advance(6_000);
  return payment;
}

const read = async (paymentId: string) =>
  expectStatus(await api("GET", `/payments/${fx.tenants.app.id}/${paymentId}`), 200);

test("a refund the provider refuses because the bank returned the debit first is settled by the return", async () => {
  const { app } = fx.tenants;
  const token = fx.tenants.owner.token;
  const price = await createPrice(fx.app, token, app.id, { name: "Plan", amount: 40, currency: "usd" });
  const payment = await clearedDebit(price.id);
  const paid = await waitForStatus(fx.app, token, app.id, payment.id, "paid");
  const sandbox = fx.app.deps.paymentProviders.sandbox;

  // The app refunds while the provider is down, so the refund job cannot reach it; meanwhile the
  // bank returns the debit; then the provider answers again, and the refund job's retry meets a
  // charge that is gone.
  await sandbox.setOutage(true);
  try {
    const refunded = expectStatus(await api("POST", `/payments/${app.id}/${payment.id}/refund`, {}), 200);
    assert.equal(refunded.status, "refunded");
    clock.advance(6_000);
  } finally {
    await sandbox.setOutage(false);
  }

  const total = String(paid.final_amount);
  // Said in full if it never comes: what the books and the payment hold then.
  const settled = await eventually(async () => {
    const entries = expectStatus(
      await api("GET", `/balance-transactions/${app.id}?payment_id=${payment.id}&type=bank_return`),
      200,
    );
    return entries.length > 0 ? entries : undefined;
  }, 60_000).catch(async () => {
    const books = expectStatus(
      await api("GET", `/balance-transactions/${app.id}?payment_id=${payment.id}`),
      200,
    );
    const lines = books.map((e: any) => `${e.type} ${e.account} ${e.amount}`);
    throw new Error(`no bank_return booked: ${lines.join("; ")}; ${JSON.stringify(await read(payment.id))}`);
  });
  assert.deepEqual(settled.map((e: any) => [e.account, e.amount]).sort(), [
    ["provider_clearing", `-${total}`],
    ["refunds", total],
  ]);
  const usd = expectStatus(await api("GET", `/balances/${app.id}`), 200).balances.find(
    (b: any) => b.currency === "usd",
  );
  assert.equal(usd.refunds_in_flight, "0");
  assert.equal(usd.refunded, total);
  // The payment stays as the app left it: refunded in full, the shopper's money back.
  const after = await read(payment.id);
  assert.equal(after.status, "refunded");
  assert.equal(after.amount_refunded, paid.final_amount);

  // The provider made no refund, and the books say none was made by it: reconciliation agrees.
  const run = expectStatus(await api("POST", `/reconciliations/${app.id}`), 201);
  const finished = await eventually(async () => {
    const now = expectStatus(await api("GET", `/reconciliations/${app.id}/${run.id}`), 200);
    return now.status === "running" ? undefined : now;
  });
  assert.deepEqual(finished.mismatches, []);
});

test("a contract call out when the bank returns the debit is followed to its end and recorded, never settled", async () => {
  const { app } = fx.tenants;
  const token = fx.tenants.owner.token;
  const wallet = expectStatus(await api("POST", `/wallets/${app.id}`, { name: "Minter", type: "evm" }), 201);
  const trigger = expectStatus(await api("POST", `/triggers/${app.id}`, evmTrigger(wallet.id)), 201);
  const price = await createPrice(fx.app, token, app.id, {
    name: "Minted pass",
    amount: 25,
    trigger_id: trigger.id,
    chain: "evm",
  });
  const receiver = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
  const input = { receiver, quantity: 1, order_id: "pass-1 sandbox:slow" };
  const payment = await clearedDebit(price.id, { trigger_data_input: { params_data_input: input } });
  // Collected, so the call is made: signed and sent, and pending on the chain.
  const out = await eventually(async () => {
    const now = await read(payment.id);
    return now.transaction_id && now.status === "hold" ? now : undefined;
  }, 30_000);
  assert.equal(out.confirmation_status.confirmed, false);

  // The bank returns the debit while the call has two of its three blocks (5.5 s of the clock).
  clock.advance(5_500);
  const failed = await waitForStatus(fx.app, token, app.id, payment.id, "failed", 60_000);
  assert.equal(failed.transaction_response.error.returned_after_collection, true);
  assert.equal(failed.confirmation_status.confirmed, false);

  // The call lands all the same: the payment says so, stays failed with the bank's reason, and
  // nothing is captured or transferred from money that went back.
  clock.advance(1_000);
  const landed = await eventually(async () => {
    const now = await read(payment.id);
    return now.confirmation_status.confirmed ? now : undefined;
  }, 30_000);
  assert.equal(landed.status, "failed");
  assert.equal(landed.transaction_id, out.transaction_id);
  assert.equal(landed.transaction_response.error.code, "account_closed");
  assert.equal(landed.confirmation_status.confirmations, 3);
  assert.deepEqual(landed.transfers, []);
});
