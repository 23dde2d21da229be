import assert from "node:assert/strict";
import { test } from "node:test";
import { SandboxKycProvider } from "../../src/platform/providers/kyc/sandbox.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { kycFixture, onboardSeller } from "../helpers/kyc.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

// A payment's payout pointed at another seller after its money was captured (docs/kyc.md,
// "Deleting a seller"): the share the books owed the first seller is owed to the second, so each
// seller's account says what that seller is owed, not only the sum of them.

const fx = useTestApp({}, { tenants: false });

test("a captured seller share pointed at another seller is owed to that seller in the books", async () => {
  const tenant = await kycFixture(fx.app);
  const appId = tenant.app.id;
  const api = (method: string, url: string, body?: unknown) =>
    call(fx.app, method, url, { token: tenant.apiKey, body });
  const first = await onboardSeller(fx.app, appId, tenant.apiKey, "first-seller");
  const second = await onboardSeller(fx.app, appId, tenant.apiKey, "second-seller");
  const price = await createPrice(fx.app, tenant.apiKey, appId, {
    name: "Print",
    amount: 40,
    kyc_id: first.id,
  });

  // The provider pauses the first seller's payouts (its own state): the transfer is refused.
  await new SandboxKycProvider(fx.app.deps.db).pausePayouts(first.account_id, true, "pause-first");
  const payment = await createPayment(fx.app, tenant.apiKey, appId, {
    price_id: price.id,
    payment_provider: "card",
  });
  expectStatus(await confirm(fx.app, tenant.apiKey, appId, payment.id, card(CARDS.ok)), 200);
  const failed = await waitForStatus(fx.app, tenant.apiKey, appId, payment.id, "failed-transfers");
  const share = String(failed.price_item.amount_seller);

  // The app points the payout at the second seller and retries: the second seller is paid.
  const moved = expectStatus(
    await api("POST", `/payments/${appId}/${payment.id}/seller`, { kyc_id: second.id }),
    200,
  );
  assert.equal(moved.kyc_id, second.id);
  expectStatus(await api("POST", `/payments/${appId}/${payment.id}/retry`), 200);
  const paid = await waitForStatus(fx.app, tenant.apiKey, appId, payment.id, "paid");
  assert.equal(String(paid.transfers[0].amount), share);

  const report = expectStatus(await api("GET", `/reports/${appId}/seller-payouts`), 200);
  const row = (kycId: string) => report.sellers.find((s: any) => s.kyc_id === kycId);
  assert.deepEqual(
    { earned: row(first.id)?.earned ?? "0", owed: row(first.id)?.owed_at_end ?? "0" },
    { earned: "0", owed: "0" },
    "the first seller is owed nothing of it",
  );
  assert.deepEqual(
    {
      earned: row(second.id).earned,
      transferred: row(second.id).transferred,
      owed: row(second.id).owed_at_end,
    },
    { earned: share, transferred: share, owed: "0" },
  );
  const moves = expectStatus(
    await api("GET", `/balance-transactions/${appId}?payment_id=${payment.id}&type=payout_moved`),
    200,
  );
  assert.deepEqual(moves.map((e: any) => [e.account, e.amount]).sort(), [
    [`seller_payable:${first.id}`, `-${share}`],
    [`seller_payable:${second.id}`, share],
  ]);
});
