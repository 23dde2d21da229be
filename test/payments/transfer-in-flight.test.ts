// A seller's transfer asked for and not yet answered may already be with the seller (docs/kyc.md,
// "Deleting a seller"): the app cannot point the payout at another seller meanwhile, a re-point
// that overtakes the settle job's read is booked and paid to the new seller, and a refund or a bank
// return learns the transfer's outcome before it takes the seller's part back. A slow provider is
// played by wrapping the sandbox's own calls, an answer lost on the way by its `lostAnswers`.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { TransferInput } from "../../src/platform/providers/payments/types.ts";
import { FakeClock } from "../helpers/clock.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { kycFixture, onboardSeller } from "../helpers/kyc.ts";
import { bank, CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

// The clock moves only when a test moves it: the sandbox clears and returns bank debits by it.
const clock = new FakeClock(new Date("2026-12-01T10:00:00Z"));
const fx = useTestApp({}, { tenants: false, now: clock.now });

type Sandbox = typeof fx.app.deps.paymentProviders.sandbox;
type Method = "transfer" | "captureIntent";

/** Runs `body` with the sandbox's `method` going through `around`, then puts it back. */
async function withSandbox<M extends Method>(
  method: M,
  around: (real: Sandbox[M]) => Sandbox[M],
  body: () => Promise<void>,
) {
  const sandbox = fx.app.deps.paymentProviders.sandbox;
  sandbox[method] = around(sandbox[method].bind(sandbox) as Sandbox[M]);
  try {
    await body();
  } finally {
    // The instance's own property shadowed the class's method: removing it restores the real one.
    delete (sandbox as Partial<Sandbox>)[method];
  }
}

/** A call held until `release`: `reached` resolves with its input once the service makes it. */
function gate<I>() {
  let arrive = (_input: I) => {};
  const reached = new Promise<I>((resolve) => {
    arrive = resolve;
  });
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const hold = async (input: I) => {
    arrive(input);
    await released;
  };
  return { reached, release, hold };
}

async function marketplace(name: string) {
  const tenant = await kycFixture(fx.app);
  const appId = tenant.app.id;
  const first = await onboardSeller(fx.app, appId, tenant.apiKey, `${name}-first`);
  const second = await onboardSeller(fx.app, appId, tenant.apiKey, `${name}-second`);
  const price = await createPrice(fx.app, tenant.apiKey, appId, { name, amount: 40, kyc_id: first.id });
  const api = (method: string, url: string, body?: unknown) =>
    call(fx.app, method, url, { token: tenant.apiKey, body });
  /** A payment of the seller's price, confirmed: by card, or from a bank account. */
  const pay = async (account?: string) => {
    const payment = await createPayment(fx.app, tenant.apiKey, appId, {
      price_id: price.id,
      payment_provider: account ? "us_bank_account" : "card",
    });
    const method = account ? bank(account) : card(CARDS.ok);
    expectStatus(await confirm(fx.app, tenant.apiKey, appId, payment.id, method), 200);
    return payment.id as string;
  };
  const sellerRow = async (kycId: string) => {
    const report = expectStatus(await api("GET", `/reports/${appId}/seller-payouts`), 200);
    const row = report.sellers.find((s: any) => s.kyc_id === kycId);
    return {
      earned: row?.earned ?? "0",
      ...(row && Number(row.refunded) !== 0 ? { refunded: row.refunded } : {}),
      transferred: row?.transferred ?? "0",
      reversed: row?.reversed ?? "0",
      owed: row?.owed_at_end ?? "0",
    };
  };
  /** The payment, whose share the books say `paid` earned and was sent, and `unpaid` neither. */
  const paidOnlyTo = async (paymentId: string, paid: string, unpaid: string) => {
    const payment = expectStatus(await api("GET", `/payments/${appId}/${paymentId}`), 200);
    const share = String(payment.price_item.amount_seller);
    const none = { earned: "0", transferred: "0", reversed: "0", owed: "0" };
    assert.deepEqual(await sellerRow(paid), { ...none, earned: share, transferred: share });
    assert.deepEqual(await sellerRow(unpaid), none);
    return payment;
  };
  return { tenant, appId, first, second, api, pay, sellerRow, paidOnlyTo };
}

test("the payout cannot be re-pointed while the transfer to the first seller is in flight", async () => {
  const { tenant, appId, first, second, api, pay, paidOnlyTo } = await marketplace("Etching");
  const held = gate<TransferInput>();
  let paymentId = "";
  await withSandbox(
    "transfer",
    (real) => async (input, options) => {
      await held.hold(input);
      return real(input, options);
    },
    async () => {
      paymentId = await pay();
      const input = await held.reached;
      assert.equal(input.destination, first.account_id);
      const refused = assertProblem(
        await api("POST", `/payments/${appId}/${paymentId}/seller`, { kyc_id: second.id }),
        409,
        "invalid_state_transition",
      );
      assert.match(refused.detail, /in flight/);
      held.release();
      await waitForStatus(fx.app, tenant.apiKey, appId, paymentId, "paid");
    },
  );
  const paid = await paidOnlyTo(paymentId, first.id, second.id);
  assert.equal(paid.kyc_id, first.id, "the payment names the seller who was paid");
});

test("a transfer whose answer was lost is learned and taken back when the payment is refunded", async () => {
  const { tenant, appId, first, second, api, pay, sellerRow } = await marketplace("Woodcut");
  // The sandbox makes the transfer and its answer never reaches the service (its own control).
  fx.app.deps.paymentProviders.sandbox.lostAnswers.lose("transfer", 1);
  const paymentId = await pay();
  const failed = await waitForStatus(fx.app, tenant.apiKey, appId, paymentId, "failed-transfers");
  assert.equal(failed.transaction_response.error.code, "provider_unavailable");
  assert.deepEqual(failed.transfers ?? [], [], "nothing recorded: the service cannot know");
  assertProblem(
    await api("POST", `/payments/${appId}/${paymentId}/seller`, { kyc_id: second.id }),
    409,
    "invalid_state_transition",
  );
  expectStatus(await api("POST", `/payments/${appId}/${paymentId}/refund`, {}), 200);
  // The refund job asks again under the transfer's key, records what the provider made, and
  // takes it back.
  const refunded = await eventually(async () => {
    const payment = expectStatus(await api("GET", `/payments/${appId}/${paymentId}`), 200);
    const [transfer] = payment.transfers ?? [];
    return payment.status === "refunded" && transfer?.status === "reversed" ? payment : undefined;
  });
  assert.equal(refunded.transfers.length, 1);
  assert.equal(refunded.transfers[0].kyc_id, first.id);
  const share = String(refunded.price_item.amount_seller);
  assert.deepEqual(await sellerRow(first.id), {
    earned: share,
    refunded: share,
    transferred: share,
    reversed: share,
    owed: "0",
  });
  const made = expectStatus(await api("GET", `/sandbox/v1/transfers?transfer_group=${paymentId}`), 200);
  assert.equal(made.data.length, 1, "one transfer at the provider: asked again, it was answered the same");
  assert.equal(made.data[0].amount_reversed, made.data[0].amount);
});

test("a payout re-pointed while the card is being captured is booked to and paid to the new seller", async () => {
  const { tenant, appId, first, second, api, pay, paidOnlyTo } = await marketplace("Linocut");
  const held = gate<string>();
  let paymentId = "";
  await withSandbox(
    "captureIntent",
    (real) => async (intentId, amount, options) => {
      await held.hold(intentId);
      return real(intentId, amount, options);
    },
    async () => {
      paymentId = await pay();
      await held.reached;
      // The settle job has read the payment naming the first seller; nothing is captured yet.
      const moved = expectStatus(
        await api("POST", `/payments/${appId}/${paymentId}/seller`, { kyc_id: second.id }),
        200,
      );
      assert.equal(moved.kyc_id, second.id);
      held.release();
      await waitForStatus(fx.app, tenant.apiKey, appId, paymentId, "paid");
    },
  );
  const paid = await paidOnlyTo(paymentId, second.id, first.id);
  assert.equal(paid.transfers[0].kyc_id, second.id);
});

test("a bank debit returned while its seller's transfer is in flight takes the transfer back", async () => {
  const { tenant, appId, first, api, pay } = await marketplace("Mezzotint");
  const sandbox = fx.app.deps.paymentProviders.sandbox;
  const held = gate<TransferInput>();
  let paymentId = "";
  await withSandbox(
    "transfer",
    (real) => async (input, options) => {
      // Made at the provider; its answer is on the way while the return lands.
      const made = await real(input, options);
      await held.hold(input);
      return made;
    },
    async () => {
      // The sandbox's returning account: cleared 5 s of the clock after the provider takes it,
      // returned 5 s after that.
      paymentId = await pay("000111111113");
      await eventually(async () => {
        const [intent] = await sandbox.intentsOfPayment(paymentId);
        return intent?.status === "processing" ? intent : undefined;
      });
      clock.advance(6_000);
      await held.reached;
      // The settle job waits for the transfer's answer when the bank takes the debit back.
      clock.advance(6_000);
      const failed = await waitForStatus(fx.app, tenant.apiKey, appId, paymentId, "failed", 60_000);
      assert.equal(failed.transaction_response.error.returned_after_collection, true);
      held.release();
    },
  );
  const reversed = await eventually(async () => {
    const payment = expectStatus(await api("GET", `/payments/${appId}/${paymentId}`), 200);
    const [transfer] = payment.transfers ?? [];
    return transfer?.status === "reversed" ? payment : undefined;
  });
  assert.equal(reversed.transfers.length, 1);
  assert.equal(reversed.transfers[0].kyc_id, first.id);
  const made = expectStatus(await api("GET", `/sandbox/v1/transfers?transfer_group=${paymentId}`), 200);
  assert.equal(made.data.length, 1);
  assert.equal(made.data[0].amount_reversed, made.data[0].amount);
});
