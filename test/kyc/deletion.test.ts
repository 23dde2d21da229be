import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import { applyAccount } from "../../src/modules/kyc/sync.ts";
import { SandboxKycProvider } from "../../src/platform/providers/kyc/sandbox.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { kycFixture, onboardSeller } from "../helpers/kyc.ts";
import { CARDS, card, confirm, waitForStatus } from "../helpers/payments.ts";

// A seller (KYC record) with money in flight is not deleted: their share would have nowhere to go.
// A payment whose seller cannot be paid is pointed at another seller, then retried, and pays out.

let tenant: Awaited<ReturnType<typeof kycFixture>>;
let kyc: SandboxKycProvider;

const fx = useTestApp(
  { SECRETS_MASTER_KEY: randomBytes(32).toString("base64") },
  {
    tenants: false,
    async setUp() {
      tenant = await kycFixture(fx.app);
      kyc = new SandboxKycProvider(fx.app.deps.db);
    },
  },
);

const api = (method: string, url: string, body?: unknown) =>
  call(fx.app, method, url, { token: tenant.apiKey, body });
const kycUrl = (id: string) => `/apps/${tenant.app.id}/kycs/${id}`;

async function sellerPrice(identifier: string) {
  const seller = await onboardSeller(fx.app, tenant.app.id, tenant.apiKey, identifier);
  const price = expectStatus(
    await api("POST", `/prices/${tenant.app.id}`, {
      name: "Print",
      amount: 40,
      currency: "usd",
      kyc_id: seller.id,
    }),
    201,
  );
  return { seller, price };
}

const open = async (priceId: string) =>
  expectStatus(
    await api("POST", `/payments/${tenant.app.id}`, { price_id: priceId, payment_provider: "card" }),
    201,
  );

/** The provider pauses the seller's payouts, and the record mirrors it (what its webhook does). */
async function pausePayouts(seller: { id: string; account_id: string }, paused: boolean) {
  await kyc.pausePayouts(seller.account_id, paused, `${paused ? "pause" : "resume"}-${seller.id}`);
  const account = await kyc.retrieveAccount(seller.account_id);
  await fx.app.deps.db.transaction((tx) =>
    applyAccount(fx.app.deps, tx, seller.id, account, { now: new Date(), actionDone: false }),
  );
}

describe("deleting a seller with payments open", () => {
  test("409 naming what is open (pending, then on hold); 204 once it is settled", async () => {
    const { seller, price } = await sellerPrice("seller-open");
    const payment = await open(price.id);
    const pending = assertProblem(await api("DELETE", kycUrl(seller.id)), 409, "conflict");
    assert.match(pending.detail, /1 payment pending/);
    assert.equal(pending.open.pending, 1);
    expectStatus(await api("GET", kycUrl(seller.id)), 200);

    expectStatus(await confirm(fx.app, tenant.apiKey, tenant.app.id, payment.id, card(CARDS.ok)), 200);
    await waitForStatus(fx.app, tenant.apiKey, tenant.app.id, payment.id, "paid");
    expectStatus(await api("DELETE", kycUrl(seller.id)), 204);
    assertProblem(await api("GET", kycUrl(seller.id)), 404, "not_found");
  });

  test("another app's seller, or an unknown one: 404, as before", async () => {
    assertProblem(await api("DELETE", kycUrl("kyc_unknown")), 404, "not_found");
  });
});

describe("re-pointing a payout, then retry", () => {
  test("a failed-transfers payment names only fixes that work; pointed at a payable seller and retried, it pays out", async () => {
    const { seller, price } = await sellerPrice("seller-gone-quiet");
    const other = await onboardSeller(fx.app, tenant.app.id, tenant.apiKey, "seller-taking-over");
    const payment = await open(price.id);
    await pausePayouts(seller, true);
    expectStatus(await confirm(fx.app, tenant.apiKey, tenant.app.id, payment.id, card(CARDS.ok)), 200);
    const failed = await waitForStatus(fx.app, tenant.apiKey, tenant.app.id, payment.id, "failed-transfers");
    assert.equal(failed.kyc_id, seller.id);
    assert.match(
      failed.transaction_response.error.message,
      /POST \/payments\/\{app_id\}\/\{payment_id\}\/seller/,
    );
    assert.match(failed.transaction_response.error.message, /refund/);

    // The stuck seller cannot be deleted: their share is open.
    const refused = assertProblem(await api("DELETE", kycUrl(seller.id)), 409, "conflict");
    assert.match(refused.detail, /1 payment failed-transfers/);
    assert.equal(refused.open.failed_transfers, 1);

    // Pointing at a seller who cannot be paid is refused, and changes nothing.
    const unpaid = expectStatus(
      await api("POST", `/apps/${tenant.app.id}/kycs`, { identifier: "seller-not-onboarded" }),
      201,
    ).data;
    const url = `/payments/${tenant.app.id}/${payment.id}/seller`;
    assertProblem(await api("POST", url, { kyc_id: unpaid.id }), 409, "seller_not_payable");
    assertProblem(await api("POST", url, { kyc_id: "kyc_nope" }), 404, "not_found");
    assert.equal(
      expectStatus(await api("GET", `/payments/${tenant.app.id}/${payment.id}`), 200).kyc_id,
      seller.id,
    );

    const moved = expectStatus(await api("POST", url, { kyc_id: other.id }), 200);
    assert.equal(moved.kyc_id, other.id);
    assert.equal(moved.status, "failed-transfers");
    expectStatus(await api("POST", `/payments/${tenant.app.id}/${payment.id}/retry`), 200);
    const paid = await waitForStatus(fx.app, tenant.apiKey, tenant.app.id, payment.id, "paid");
    assert.equal(paid.transaction_response.error, null);
    const transfers = expectStatus(
      await call(fx.app, "GET", `/sandbox/v1/transfers?transfer_group=${payment.id}`),
      200,
    ).data;
    assert.deepEqual(
      transfers.map((tr: { destination: string }) => tr.destination),
      [other.account_id],
      "the new seller was paid, the old one not",
    );

    // Paid out: the share cannot move again, and the old seller can now go.
    assertProblem(await api("POST", url, { kyc_id: seller.id }), 409, "invalid_state_transition");
    expectStatus(await api("DELETE", kycUrl(seller.id)), 204);
  });

  test("an open payment pointed elsewhere frees its seller for deletion; the outsider cannot re-point", async () => {
    const { seller, price } = await sellerPrice("seller-leaving");
    const other = await onboardSeller(fx.app, tenant.app.id, tenant.apiKey, "seller-staying");
    const payment = await open(price.id);
    const url = `/payments/${tenant.app.id}/${payment.id}/seller`;
    assertProblem(
      await call(fx.app, "POST", url, { token: tenant.otherApiKey, body: { kyc_id: other.id } }),
      404,
      "not_found",
    );
    assertProblem(await api("POST", url, {}), 400, "validation_failed");
    expectStatus(await api("POST", url, { kyc_id: other.id }), 200);
    expectStatus(await api("DELETE", kycUrl(seller.id)), 204);
    expectStatus(await confirm(fx.app, tenant.apiKey, tenant.app.id, payment.id, card(CARDS.ok)), 200);
    await waitForStatus(fx.app, tenant.apiKey, tenant.app.id, payment.id, "paid");
  });
});
