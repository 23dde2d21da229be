// What a payment takes from its price (docs/payments.md): a dynamic price takes an amount of at
// least its own and a static one refuses any; an expired price takes no payment (409); and a price
// with payments is expired instead of deleted.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { createPayment } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { useAppWithPrice } from "./lifecycle-fixtures.ts";

let price: any;
const fx = useAppWithPrice((made) => {
  price = made;
});

describe("payments", () => {
  test("dynamic prices take an amount of at least theirs; static ones refuse it; expired ones are 409", async () => {
    const dynamic = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      type: "dynamic",
      amount: 5,
    });
    const more = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: dynamic.id,
      payment_provider: "card",
      amount: 7.25,
    });
    assert.equal(more.price_item.amount, 7.25);
    const less = await call(fx.app, "POST", `/payments/${fx.tenants.app.id}`, {
      token: fx.tenants.owner.token,
      body: { price_id: dynamic.id, payment_provider: "card", amount: 4.99 },
    });
    assert.equal(assertProblem(less, 400, "validation_failed").errors[0].path, "/body/amount");
    const fixed = await call(fx.app, "POST", `/payments/${fx.tenants.app.id}`, {
      token: fx.tenants.owner.token,
      body: { price_id: price.id, payment_provider: "card", amount: 30 },
    });
    assertProblem(fixed, 400, "validation_failed");
    const expired = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { amount: 3 });
    expectStatus(
      await call(fx.app, "PATCH", `/prices/${fx.tenants.app.id}/${expired.id}`, {
        token: fx.tenants.owner.token,
        body: { expired: true },
      }),
      200,
    );
    assertProblem(
      await call(fx.app, "POST", `/payments/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: { price_id: expired.id, payment_provider: "card" },
      }),
      409,
      "conflict",
    );
  });

  test("a price with payments is expired instead of deleted", async () => {
    const sold = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { amount: 1 });
    await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      price_id: sold.id,
      payment_provider: "card",
    });
    expectStatus(
      await call(fx.app, "DELETE", `/prices/${fx.tenants.app.id}/${sold.id}`, {
        token: fx.tenants.owner.token,
      }),
      204,
    );
    const still = expectStatus(
      await call(fx.app, "GET", `/prices/${fx.tenants.app.id}/${sold.id}`, { token: fx.tenants.owner.token }),
      200,
    );
    assert.equal(still.expired, true);
  });
});
