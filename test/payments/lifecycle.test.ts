import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { canMove, TRANSITIONS } from "../../src/modules/payments/lifecycle.ts";
import { PAYMENT_STATUSES } from "../../src/modules/payments/tables.ts";
import { checkRouteBasics, eventually } from "../helpers/contract.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { bank, CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { useAppWithPrice } from "./lifecycle-fixtures.ts";

let price: any;
const fx = useAppWithPrice((made) => {
  price = made;
});

const PAYMENT_FIELDS = [
  "amount_refunded",
  "app",
  "cancelable",
  "confirmation_status",
  "created_at",
  "final_amount",
  "id",
  "kyc_id",
  "next_action",
  "payment_provider",
  "payment_token",
  "price",
  "price_item",
  "shopper_email",
  "status",
  "transaction_id",
  "transaction_response",
  "transaction_url",
  "transfers",
  "trigger_data_input",
  "updated_at",
];

describe("the lifecycle table", () => {
  test("exactly the moves docs/payments.md lists (a returned bank debit's `-> failed` and a refused call's reopening included)", () => {
    const allowed = PAYMENT_STATUSES.flatMap((from) =>
      TRANSITIONS[from].map((to) => `${from}->${to}`),
    ).sort();
    assert.deepEqual(
      allowed,
      [
        "failed-captured->failed",
        "failed-captured->paid",
        "failed-captured->refunded",
        "failed-transfers->failed",
        "failed-transfers->paid",
        "failed-transfers->refunded",
        "failed->pending",
        "hold->cancelled",
        "hold->failed",
        "hold->failed-captured",
        "hold->paid",
        "paid->failed",
        "paid->failed-transfers",
        "paid->refunded",
        "pending->cancelled",
        "pending->failed",
        "pending->hold",
        "pending->paid",
      ].sort(),
    );
    assert.equal(canMove("refunded", "paid"), false);
  });
});

describe("payments", () => {
  test("create answers 201 pending with the fee split fixed and a payment token", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
      shopper_email: "Shopper@Example.com",
    });
    assert.deepEqual(Object.keys(payment).sort(), PAYMENT_FIELDS);
    assert.equal(payment.status, "pending");
    assert.match(payment.payment_token, /^pt_/);
    assert.equal(payment.price.id, price.id);
    assert.equal(payment.app.id, fx.tenants.app.id);
    assert.equal(payment.shopper_email, "shopper@example.com");
    const item = payment.price_item;
    assert.equal(item.amount, 20);
    assert.equal(payment.final_amount, item.amount_total);
    const cents = (n: number) => Math.round(n * 100);
    assert.equal(
      cents(item.amount_total),
      cents(item.processing_fee_amount) +
        cents(item.amount_app_transaction_fee) +
        cents(item.amount_platform) +
        cents(item.amount_app) +
        cents(item.amount_seller),
    );
    const read = expectStatus(
      await call(fx.app, "GET", `/payments/${fx.tenants.app.id}/${payment.id}`, {
        token: fx.tenants.owner.token,
      }),
      200,
    );
    assert.equal(read.payment_token, payment.payment_token, "the app's own reads answer the token");
    assert.deepEqual(read.price_item, payment.price_item);
  });

  test("a 4242 card is held, captured and paid; every move is an event", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    const confirmed = expectStatus(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, card(CARDS.ok)),
      200,
    );
    assert.equal(confirmed.status, "pending");
    const paid = await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, "paid");
    assert.equal(paid.transaction_response.error, null);
    // A second confirm of a paid payment is refused.
    assertProblem(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, card(CARDS.ok)),
      409,
      "invalid_state_transition",
    );
  });

  test("a declined card fails the payment with the reason; the price stays payable", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    expectStatus(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, card(CARDS.declined)),
      200,
    );
    const failed = await waitForStatus(
      fx.app,
      fx.tenants.owner.token,
      fx.tenants.app.id,
      payment.id,
      "failed",
    );
    assert.equal(failed.transaction_response.error.decline_code, "generic_decline");
    const insufficient = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    expectStatus(
      await confirm(
        fx.app,
        fx.tenants.owner.token,
        fx.tenants.app.id,
        insufficient.id,
        card(CARDS.insufficient),
      ),
      200,
    );
    const broke = await waitForStatus(
      fx.app,
      fx.tenants.owner.token,
      fx.tenants.app.id,
      insufficient.id,
      "failed",
    );
    assert.equal(broke.transaction_response.error.decline_code, "insufficient_funds");
    const again = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    expectStatus(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, again.id, card(CARDS.ok)),
      200,
    );
    await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, again.id, "paid");
  });

  test("a 3-D Secure card waits for the step, then is paid", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    expectStatus(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, card(CARDS.threeDS)),
      200,
    );
    const waiting = await eventually(async () => {
      const p = expectStatus(
        await call(fx.app, "GET", `/payments/${fx.tenants.app.id}/${payment.id}`, {
          token: fx.tenants.owner.token,
        }),
        200,
      );
      return p.next_action ? p : undefined;
    });
    assert.equal(waiting.status, "pending");
    const intentId = new URL(waiting.next_action.url).pathname.split("/").pop()!;
    await fx.app.deps.paymentProviders.sandbox.completeAuthentication(intentId, true);
    await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, "paid");
  });

  test("a bank debit is collected and paid", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "us_bank_account",
    });
    expectStatus(await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, bank()), 200);
    const paid = await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, "paid");
    assert.equal(paid.payment_provider, "us_bank_account");
  });

  test("cancel a pending payment; refund a paid one; retry refuses when nothing failed", async () => {
    const pending = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    const cancelled = expectStatus(
      await call(fx.app, "POST", `/payments/${fx.tenants.app.id}/${pending.id}/cancel`, {
        token: fx.tenants.owner.token,
        body: {},
      }),
      200,
    );
    assert.equal(cancelled.status, "cancelled");
    assertProblem(
      await call(fx.app, "POST", `/payments/${fx.tenants.app.id}/${pending.id}/refund`, {
        token: fx.tenants.owner.token,
        body: {},
      }),
      409,
      "invalid_state_transition",
    );

    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    expectStatus(
      await confirm(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, card(CARDS.ok)),
      200,
    );
    await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, payment.id, "paid");
    assertProblem(
      await call(fx.app, "POST", `/payments/${fx.tenants.app.id}/${payment.id}/retry`, {
        token: fx.tenants.owner.token,
      }),
      409,
      "invalid_state_transition",
    );
    const refunded = expectStatus(
      await call(fx.app, "POST", `/payments/${fx.tenants.app.id}/${payment.id}/refund`, {
        token: fx.tenants.owner.token,
        body: {},
      }),
      200,
    );
    assert.equal(refunded.status, "refunded");
  });

  test("list filters by status and price, with paging headers", async () => {
    const list = await call(fx.app, "GET", `/payments/${fx.tenants.app.id}?status=paid&limit=100`, {
      token: fx.tenants.developer.token,
    });
    const items = expectStatus(list, 200);
    assert.ok(items.length >= 1);
    assert.ok(items.every((p: { status: string }) => p.status === "paid"));
    assert.equal(Number(list.headers["x-total-count"]), items.length);
    const byPrice = expectStatus(
      await call(fx.app, "GET", `/payments/${fx.tenants.app.id}?price_id=${price.id}&limit=100`, {
        token: fx.tenants.owner.token,
      }),
      200,
    );
    assert.ok(byPrice.every((p: { price: { id: string } }) => p.price.id === price.id));
    assertProblem(
      await call(fx.app, "GET", `/payments/${fx.tenants.app.id}?status=unknown`, {
        token: fx.tenants.owner.token,
      }),
      400,
      "validation_failed",
    );
  });

  test("tenancy and basics", async () => {
    const payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    assertProblem(
      await call(fx.app, "GET", `/payments/${fx.tenants.app.id}/${payment.id}`, {
        token: fx.tenants.outsider.token,
      }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "GET", `/payments/${fx.tenants.otherApp.id}/${payment.id}`, {
        token: fx.tenants.outsider.token,
      }),
      404,
      "not_found",
    );
    const foreignPrice = await call(fx.app, "POST", `/payments/${fx.tenants.otherApp.id}`, {
      token: fx.tenants.outsider.token,
      body: { price_id: price.id, payment_provider: "card" },
    });
    assert.equal(assertProblem(foreignPrice, 400, "validation_failed").errors[0].path, "/body/price_id");
    const token = fx.tenants.owner.token;
    await checkRouteBasics(fx.app, {
      method: "GET",
      url: `/payments/${fx.tenants.app.id}`,
      token,
      list: true,
    });
    await checkRouteBasics(fx.app, {
      method: "POST",
      url: `/payments/${fx.tenants.app.id}`,
      token,
      body: { price_id: price.id, payment_provider: "card" },
    });
    await checkRouteBasics(fx.app, {
      method: "GET",
      url: `/payments/${fx.tenants.app.id}/${payment.id}`,
      token,
    });
    await checkRouteBasics(fx.app, {
      method: "POST",
      url: `/payments/${fx.tenants.app.id}/${payment.id}/confirm`,
      token,
      body: { payment_method: card(CARDS.ok) },
    });
    await checkRouteBasics(fx.app, {
      method: "POST",
      url: `/payments/${fx.tenants.app.id}/${payment.id}/cancel`,
      token,
      body: {},
    });
  });
});
