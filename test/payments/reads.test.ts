import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { openPaymentToken, resealPaymentTokens } from "../../src/modules/payments/payment-token.ts";
import { paymentEvents, payments } from "../../src/modules/payments/tables.ts";
import { Custody } from "../../src/platform/crypto/custody.ts";
import { envelopeFromText } from "../../src/platform/crypto/envelope.ts";
import { Keyring, toMasterKey } from "../../src/platform/crypto/keyring.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { apiKeyOf, createPrice } from "../helpers/prices.ts";

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

const get = (url: string, token = fx.tenants.owner.token) => call(fx.app, "GET", url, { token });

describe("payment_token on reads", () => {
  test("the app's own credentials read the token on GET and in the list; it is stored sealed", async () => {
    const created = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    assert.match(created.payment_token, /^pt_/);
    const key = await apiKeyOf(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    for (const token of [fx.tenants.owner.token, fx.tenants.developer.token, key]) {
      const one = expectStatus(await get(`/payments/${fx.tenants.app.id}/${created.id}`, token), 200);
      assert.equal(one.payment_token, created.payment_token);
      const list = expectStatus(await get(`/payments/${fx.tenants.app.id}?price_id=${price.id}`, token), 200);
      const listed = list.find((p: { id: string }) => p.id === created.id);
      assert.equal(listed.payment_token, created.payment_token);
    }
    // Another tenant sees neither the payment nor its token.
    assertProblem(
      await get(`/payments/${fx.tenants.app.id}/${created.id}`, fx.tenants.outsider.token),
      404,
      "not_found",
    );
    // At rest: a hash for lookups and a sealed copy, never the token itself.
    const [row] = await fx.app.deps.db.select().from(payments).where(eq(payments.id, created.id));
    assert.ok(
      !JSON.stringify(row, (_k, v) => (typeof v === "bigint" ? String(v) : v)).includes(
        created.payment_token,
      ),
    );
    assert.match(row.paymentTokenSealed ?? "", /^e1:mk_/);
    // The token still opens the shopper's view of the hosted checkout.
    const shopper = await call(fx.app, "GET", `/checkout/${price.id}/payments/${created.id}`, {
      headers: { "x-payment-token": created.payment_token },
    });
    assert.equal(expectStatus(shopper, 200).id, created.id);
  });
});

describe("payment_token and the master key", () => {
  test("rotate-master-key re-seals payment tokens under the new key; reads go on answering them", async () => {
    const created = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    const old = fx.app.deps.custody.keyring.current;
    const rotated = new Keyring(toMasterKey(randomBytes(32)), [old]);
    const rotating = { db: fx.app.deps.db, custody: new Custody(() => rotated) };
    const { resealed } = await resealPaymentTokens(rotating);
    assert.ok(resealed >= 1);
    const [row] = await fx.app.deps.db.select().from(payments).where(eq(payments.id, created.id));
    assert.equal(envelopeFromText(row.paymentTokenSealed!).keyId, rotated.current.id);
    const newOnly = new Custody(() => new Keyring(rotated.current));
    assert.equal(
      newOnly.openText(`payment-token:${created.id}`, row.paymentTokenSealed!),
      created.payment_token,
    );
    // Run again: nothing left to re-seal.
    assert.equal((await resealPaymentTokens(rotating)).resealed, 0);
    // A sealed token copied onto another payment does not open there.
    assert.throws(() => newOnly.openText("payment-token:pay_other", row.paymentTokenSealed!));
    // Back under the app's own key, so the other tests' reads open every token.
    await resealPaymentTokens({
      db: fx.app.deps.db,
      custody: new Custody(() => new Keyring(old, [rotated.current])),
    });
    const read = expectStatus(await get(`/payments/${fx.tenants.app.id}/${created.id}`), 200);
    assert.equal(read.payment_token, created.payment_token);
  });
});

describe("payment tokens kept opened", () => {
  test("a token the process keeps opened is kept by payment: its sealed text copied onto another does not open", async () => {
    const created = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    // Read twice: the second answer comes from what the process kept.
    for (let i = 0; i < 2; i++) {
      const read = expectStatus(await get(`/payments/${fx.tenants.app.id}/${created.id}`), 200);
      assert.equal(read.payment_token, created.payment_token);
    }
    const [row] = await fx.app.deps.db.select().from(payments).where(eq(payments.id, created.id));
    const { custody } = fx.app.deps;
    assert.equal(openPaymentToken(custody, row), created.payment_token);
    assert.throws(() =>
      openPaymentToken(custody, { id: "pay_other", paymentTokenSealed: row.paymentTokenSealed }),
    );
  });
});

describe("confirmation_status without a chain step", () => {
  test("pending reads unconfirmed; once paid the confirmation is complete", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    assert.equal(payment.confirmation_status.confirmed, false);
    assert.equal(payment.confirmation_status.progress, 0);
    expectStatus(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, card(CARDS.ok)),
      200,
    );
    const paid = await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, "paid");
    assert.deepEqual(paid.confirmation_status, {
      average_seconds: 0,
      progress: 100,
      required_confirmations: 0,
      confirmations: 0,
      confirmed: true,
    });
    const shopper = expectStatus(
      await call(fx.app, "GET", `/checkout/${price.id}/payments/${payment.id}`, {
        headers: { "x-payment-token": payment.payment_token },
      }),
      200,
    );
    assert.deepEqual(shopper.confirmation_status, { progress: 100, confirmed: true });
  });
});

describe("price_item.conversion", () => {
  test("figures converted back from the charge are rounded (3 near at 3.25 usd: 3.092, not 3.0923076923076924)", async () => {
    const near = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      amount: 3,
      currency: "near",
    });
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: near.id,
      payment_provider: "card",
    });
    const item = payment.price_item;
    assert.equal(item.amount_total, 10.05);
    assert.deepEqual(
      {
        amount: item.conversion.amount,
        amount_total: item.conversion.amount_total,
        amount_transaction_fee: item.conversion.amount_transaction_fee,
        exchange: item.conversion.exchange,
      },
      { amount: 3, amount_total: 3.092, amount_transaction_fee: 0.092, exchange: 3.25 },
    );
    for (const [name, value] of Object.entries(item.conversion)) {
      if (typeof value !== "number") continue;
      assert.ok(String(value).length <= 12, `${name} = ${value} reads as a rounded amount`);
    }
    // The same on the preview and on every later read.
    const preview = expectStatus(
      await get(`/prices/${fx.tenants.app.id}/${near.id}/price-item?payment_provider=card`),
      200,
    );
    assert.deepEqual(preview.conversion, item.conversion);
    const read = expectStatus(await get(`/payments/${fx.tenants.app.id}/${payment.id}`), 200);
    assert.deepEqual(read.price_item, item);
  });
});

describe("confirming after the price expired", () => {
  test("409; the payment is cancelled, through the API and the hosted checkout alike", async () => {
    const expiresAt = new Date(Date.now() + 1500);
    const brief = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      amount: 5,
      currency: "usd",
      expires_at: expiresAt.toISOString(),
    });
    const viaApi = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: brief.id,
      payment_provider: "card",
    });
    const viaPage = expectStatus(
      await call(fx.app, "POST", `/checkout/${brief.id}/payments`, {
        body: { email: "late@example.com", payment_provider: "card" },
      }),
      201,
    );
    await eventually(() => Date.now() > expiresAt.getTime() + 100 || undefined, 5000);

    const refused = assertProblem(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, viaApi.id, card(CARDS.ok)),
      409,
      "conflict",
    );
    assert.match(refused.detail, /expired/);
    const read = expectStatus(await get(`/payments/${fx.tenants.app.id}/${viaApi.id}`), 200);
    assert.equal(read.status, "cancelled");
    const [event] = await fx.app.deps.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.paymentId, viaApi.id))
      .orderBy(paymentEvents.createdAt)
      .then((events) => events.slice(-1));
    assert.equal(event.toStatus, "cancelled");
    assert.match(event.reason, /expired/);

    const shopperConfirm = await call(
      fx.app,
      "POST",
      `/checkout/${brief.id}/payments/${viaPage.id}/confirm`,
      {
        headers: { "x-payment-token": viaPage.payment_token },
        body: { payment_method: card(CARDS.ok) },
      },
    );
    assertProblem(shopperConfirm, 409, "conflict");
    const shopperView = expectStatus(
      await call(fx.app, "GET", `/checkout/${brief.id}/payments/${viaPage.id}`, {
        headers: { "x-payment-token": viaPage.payment_token },
      }),
      200,
    );
    assert.equal(shopperView.status, "cancelled");

    // Nothing was authorised: no card hold exists for either.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const id of [viaApi.id, viaPage.id]) {
      const [row] = await fx.app.deps.db.select().from(payments).where(eq(payments.id, id));
      assert.equal(row.authState, "none");
      assert.equal(row.capturedAmount, 0n);
    }
    // A confirm that is simply repeated stays refused.
    assertProblem(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, viaApi.id, card(CARDS.ok)),
      409,
      "invalid_state_transition",
    );
  });
});
