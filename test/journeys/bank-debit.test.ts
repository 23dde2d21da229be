import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { onboardSeller } from "../helpers/kyc.ts";
import { bank, confirm, createPayment } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { Receiver, verifyStandardWebhook } from "../helpers/webhooks.ts";

// A shopper pays by bank debit with the sandbox's documented test accounts (docs/providers.md):
// one debit is collected and paid; another is collected, paid, and then returned by the bank
// (account closed), which the app learns from the payment and from its webhook.

let token: string;
let appId: string;
let price: any;
let receiver: Receiver;
let secret: string;

const fx = useTestApp(
  { WEBHOOKS_ALLOW_LOOPBACK: "true" },
  {
    tenants: false,
    async setUp() {
      token = (await signup(fx.app)).token;
      appId = (await createApp(fx.app, token, { name: "Bank shop" })).id;
      price = await createPrice(fx.app, token, appId, { name: "Annual plan", amount: 120, currency: "usd" });
      receiver = new Receiver();
      const endpoint = expectStatus(
        await call(fx.app, "POST", `/webhooks/${appId}`, {
          token,
          body: { url: await receiver.start(), events: ["payment.*"] },
        }),
        201,
      );
      secret = endpoint.secret;
    },
    afterClose: () => receiver.stop(),
  },
);

const read = async (paymentId: string) =>
  expectStatus(await call(fx.app, "GET", `/payments/${appId}/${paymentId}`, { token }), 200);

/** Waits (jobs move the payment; a debit takes the sandbox's few seconds to clear) for `status`. */
async function until(paymentId: string, status: string) {
  let last: any;
  try {
    return await eventually(async () => {
      last = await read(paymentId);
      return last.status === status ? last : undefined;
    }, 45_000);
  } catch {
    throw new Error(`payment stayed ${last?.status}, expected ${status}: ${JSON.stringify(last)}`);
  }
}

/** The signed deliveries of `type` for the payment, once at least one arrived. */
async function delivered(paymentId: string, type: string) {
  return eventually(() => {
    const hits = receiver.received.filter((hit) => {
      const payload = JSON.parse(hit.body);
      return payload.type === type && JSON.stringify(payload.data).includes(paymentId);
    });
    return hits.length > 0 ? hits : undefined;
  }, 30_000);
}

async function payByBank(account: string) {
  const payment = await createPayment(fx.app, token, appId, {
    price_id: price.id,
    payment_provider: "us_bank_account",
    shopper_email: "payer@example.com",
  });
  const answer = expectStatus(await confirm(fx.app, token, appId, payment.id, bank(account)), 200);
  // A bank debit is not instant: the payment waits, pending, while the debit clears.
  assert.equal(answer.status, "pending");
  return payment;
}

describe("paying by bank debit", () => {
  test("a debit is collected, then the payment is paid, announced by webhooks", async () => {
    const payment = await payByBank("000123456789");
    const paid = await until(payment.id, "paid");
    assert.equal(paid.payment_provider, "us_bank_account");
    assert.equal(paid.final_amount, paid.price_item.amount_total);
    assert.equal(paid.transaction_response.error, null);
    // No contract call to wait for: once paid, the confirmation is complete.
    assert.equal(paid.confirmation_status.confirmed, true);
    assert.equal(paid.confirmation_status.progress, 100);
    for (const type of ["payment.hold", "payment.paid"]) {
      const [hit] = await delivered(payment.id, type);
      assert.ok(verifyStandardWebhook(secret, hit.headers, hit.body), `${type} is signed`);
    }
    // It stays paid: this account's bank never takes the money back.
    await new Promise((resolve) => setTimeout(resolve, 8000));
    assert.equal((await read(payment.id)).status, "paid");
    // And it is refundable as any paid payment.
    const refunded = expectStatus(
      await call(fx.app, "POST", `/payments/${appId}/${payment.id}/refund`, { token, body: {} }),
      200,
    );
    assert.equal(refunded.status, "refunded");
  });

  test("a debit returned by the bank after it was collected ends failed, with the reason and a webhook", async () => {
    const payment = await payByBank("000111111113");
    // Collected first: the payment goes all the way to paid.
    await until(payment.id, "paid");
    // Then the shopper's bank returns the debit (account closed).
    const failed = await until(payment.id, "failed");
    assert.equal(failed.transaction_response.error.code, "account_closed");
    assert.match(failed.transaction_response.error.message, /closed/);
    assert.equal(failed.transaction_response.error.returned_after_collection, true);

    const [hit] = await delivered(payment.id, "payment.failed");
    assert.ok(verifyStandardWebhook(secret, hit.headers, hit.body), "payment.failed is signed");
    assert.match(hit.body, /returned after collection/);

    // The money went back to the shopper with the return: nothing left to refund or retry.
    assertProblem(
      await call(fx.app, "POST", `/payments/${appId}/${payment.id}/refund`, { token, body: {} }),
      409,
      "invalid_state_transition",
    );
    assertProblem(
      await call(fx.app, "POST", `/payments/${appId}/${payment.id}/retry`, { token, body: {} }),
      409,
      "invalid_state_transition",
    );
    const listed = expectStatus(
      await call(fx.app, "GET", `/payments/${appId}?status=failed`, { token }),
      200,
    );
    assert.deepEqual(
      listed.map((p: { id: string }) => p.id),
      [payment.id],
    );
  });
});

describe("a marketplace sale paid by a bank debit that is returned", () => {
  test("the seller was paid from the debit, so the return takes the seller's transfer back", async () => {
    const shop = await createApp(fx.app, token, { name: "Bank market", type: "marketplace" });
    const key = expectStatus(
      await call(fx.app, "POST", `/apps/${shop.id}/api-keys`, { token, body: { name: "server" } }),
      201,
    ).key;
    const seller = await onboardSeller(fx.app, shop.id, key, "bank-seller");
    const sale = await createPrice(fx.app, token, shop.id, {
      name: "Print",
      amount: 80,
      currency: "usd",
      kyc_id: seller.id,
    });
    const payment = await createPayment(fx.app, token, shop.id, {
      price_id: sale.id,
      payment_provider: "us_bank_account",
    });
    expectStatus(await confirm(fx.app, token, shop.id, payment.id, bank("000111111113")), 200);
    const transferOf = async () =>
      expectStatus(await call(fx.app, "GET", `/sandbox/v1/transfers?transfer_group=${payment.id}`), 200)
        .data[0];
    // Collected and paid: the seller got their share.
    await eventually(async () => ((await transferOf())?.amount > 0 ? true : undefined), 45_000);
    // Then the bank returns the debit: the payment fails and the transfer is reversed in full.
    const reversed = await eventually(async () => {
      const transfer = await transferOf();
      return transfer?.reversed ? transfer : undefined;
    }, 45_000);
    assert.equal(reversed.amount_reversed, reversed.amount);
    assert.equal(reversed.reversals.data[0].metadata.payment_id, payment.id);
  });
});
