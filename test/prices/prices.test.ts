import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { FakeClock } from "../helpers/clock.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { createPrice, createTestKyc } from "../helpers/prices.ts";
import { createTestTrigger } from "../helpers/triggers.ts";

// The service clock, moved by the expiry test (the app reads it from build on).
const clock = new FakeClock();
const fx = useTestApp({}, { now: clock.now });

const PRICE_FIELDS = [
  "id",
  "type",
  "kyc_id",
  "trigger_id",
  "currency",
  "amount",
  "amount_decimal",
  "metadata",
  "name",
  "expired",
  "expires_at",
  "views",
  "network_type",
  "contract",
  "chain",
  "category",
  "created_at",
  "updated_at",
].sort();

describe("POST /prices/{app_id}", () => {
  test("creates a price with the interface's shape and defaults", async () => {
    const price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { currency: "USD" });
    assert.deepEqual(Object.keys(price).sort(), PRICE_FIELDS);
    assert.match(price.id, /^price_/);
    assert.equal(price.type, "static");
    assert.equal(price.currency, "usd");
    assert.equal(price.amount, 12.5);
    assert.equal(price.amount_decimal, "12.5");
    assert.equal(price.category, "payment");
    assert.equal(price.network_type, "testnet", "a sandbox server defaults to test networks");
    assert.equal(price.expired, false);
    assert.equal(price.views, 0);
    assert.deepEqual(price.metadata, {});
    assert.equal(price.kyc_id, null);
    assert.equal(price.trigger_id, null);
    assert.deepEqual(
      expectStatus(
        await call(fx.app, "GET", `/prices/${fx.tenants.app.id}/${price.id}`, {
          token: fx.tenants.owner.token,
        }),
        200,
      ),
      price,
    );
  });

  test("stores every field given, and a developer may create", async () => {
    const trigger = await createTestTrigger(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    const seller = await createTestKyc(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    const body = {
      name: "Mint",
      amount: 0.5,
      currency: "eth",
      type: "dynamic",
      category: "bid",
      network_type: "mainnet",
      chain: "evm",
      contract: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
      metadata: { sku: "A-1", tags: ["x"] },
      trigger_id: trigger.id,
      kyc_id: seller.id,
      expires_at: "2099-01-01T00:00:00.000Z",
    };
    const price = await createPrice(fx.app, fx.tenants.developer.token, fx.tenants.app.id, body);
    for (const [key, value] of Object.entries(body)) assert.deepEqual(price[key], value, key);
    const foreign = await createTestKyc(fx.app, fx.tenants.outsider.token, fx.tenants.otherApp.id);
    const refused = await call(fx.app, "POST", `/prices/${fx.tenants.app.id}`, {
      token: fx.tenants.owner.token,
      body: { name: "X", amount: 1, currency: "usd", kyc_id: foreign.id },
    });
    assert.equal(assertProblem(refused, 400, "validation_failed").errors[0].path, "/body/kyc_id");
  });

  test("amounts are exact: exponent notation, and strings beyond a double's precision", async () => {
    const tiny = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      amount: 1e-7,
      currency: "near",
    });
    assert.equal(tiny.amount_decimal, "0.0000001");
    const precise = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      amount: "1234567.123456789012345678",
      currency: "ETH",
    });
    assert.equal(precise.amount_decimal, "1234567.123456789012345678");
    assert.equal(precise.amount, 1234567.123456789);
    const yocto = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      amount: "0.000000000000000000000001",
      currency: "near",
    });
    assert.equal(yocto.amount_decimal, "0.000000000000000000000001");
    assert.equal(yocto.amount, 1e-24);
    const yen = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      amount: 1500,
      currency: "jpy",
    });
    assert.equal(yen.amount, 1500);
  });

  test("refuses bad amounts and currencies, naming the field, and leaves nothing behind", async () => {
    const before = Number(
      (await call(fx.app, "GET", `/prices/${fx.tenants.app.id}`, { token: fx.tenants.owner.token })).headers[
        "x-total-count"
      ],
    );
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ amount: 12.345 }, "/body/amount", /more decimals than usd allows/],
      [{ amount: 1.5, currency: "jpy" }, "/body/amount", /more decimals than jpy allows/],
      [{ amount: "0.0000000000000000001", currency: "eth" }, "/body/amount", /more decimals/],
      [{ amount: -1 }, "/body/amount", /must be >= 0/],
      [{ amount: "-1" }, "/body/amount", /must match pattern/],
      [{ amount: "1e3" }, "/body/amount", /must match pattern/],
      [{ amount: 0 }, "/body/amount", /greater than 0/],
      [{ currency: "xyz" }, "/body/currency", /unknown currency/],
      [{ currency: "us$" }, "/body/currency", /pattern/],
      [{ type: "fixed" }, "/body/type", /./],
      [{ category: "gift" }, "/body/category", /./],
      [{ network_type: "devnet" }, "/body/network_type", /./],
      [{ chain: "bitcoin" }, "/body/chain", /./],
      [{ expires_at: "tomorrow" }, "/body/expires_at", /./],
      [{ name: "" }, "/body/name", /./],
      [{ colour: "red" }, "/body/colour", /not a known field/],
    ];
    for (const [body, path, message] of cases) {
      const answer = await call(fx.app, "POST", `/prices/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: { name: "Bad", amount: 10, currency: "usd", ...body },
      });
      const problem = assertProblem(answer, 400, "validation_failed");
      const named = problem.errors.filter((e: { path: string }) => e.path === path);
      assert.ok(
        named.some((e: { message: string }) => message.test(e.message)),
        `${JSON.stringify(body)}: ${answer.text}`,
      );
    }
    const missing = await call(fx.app, "POST", `/prices/${fx.tenants.app.id}`, {
      token: fx.tenants.owner.token,
      body: { name: "x" },
    });
    const problem = assertProblem(missing, 400, "validation_failed");
    assert.ok(problem.errors.some((e: { path: string }) => e.path === "/body/amount"));
    const after = Number(
      (await call(fx.app, "GET", `/prices/${fx.tenants.app.id}`, { token: fx.tenants.owner.token })).headers[
        "x-total-count"
      ],
    );
    assert.equal(after, before);
  });

  test("a dynamic price may start at zero", async () => {
    const price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      amount: 0,
      type: "dynamic",
    });
    assert.equal(price.amount, 0);
  });

  test("a price whose seller share would be negative under the app's and platform's fees is refused", async () => {
    const owner = await signup(fx.app);
    // 99.5% app fee + 1% platform fee leave the seller less than nothing.
    const greedy = await createApp(fx.app, owner.token, { type: "marketplace", app_fee: 99.5 });
    const answer = await call(fx.app, "POST", `/prices/${greedy.id}`, {
      token: owner.token,
      body: { name: "x", amount: 10, currency: "usd" },
    });
    const problem = assertProblem(answer, 400, "validation_failed");
    assert.equal(problem.errors[0].path, "/body/amount");
    assert.match(problem.detail, /negative share/);
    // The same fee on an individual app is not taken, so the price is fine there.
    const solo = await createApp(fx.app, owner.token, { type: "individual", app_fee: 99.5 });
    await createPrice(fx.app, owner.token, solo.id, { amount: 10 });
    // 99% + 1% leaves exactly nothing: allowed, and a price in another currency is checked too.
    const edge = await createApp(fx.app, owner.token, { type: "marketplace", app_fee: 99 });
    await createPrice(fx.app, owner.token, edge.id, { amount: 10 });
    // 100% in total can still leave the seller -0.01 after two half-up roundings: 0.50 usd splits
    // round(0.005) = 0.01 + round(0.495) = 0.50.
    const roundedAway = await call(fx.app, "POST", `/prices/${edge.id}`, {
      token: owner.token,
      body: { name: "x", amount: 0.5, currency: "usd" },
    });
    assert.match(assertProblem(roundedAway, 400, "validation_failed").detail, /negative share/);
    // A price in another currency is checked in the charge currency too: 0.46 eur splits 0 + 0.46
    // in euros, but is 0.50 usd at the sandbox's 1.08, which rounds as above.
    const converted = await call(fx.app, "POST", `/prices/${edge.id}`, {
      token: owner.token,
      body: { name: "x", amount: 0.46, currency: "eur" },
    });
    assert.match(assertProblem(converted, 400, "validation_failed").detail, /negative share/);
    await createPrice(fx.app, owner.token, edge.id, { amount: 0.47, currency: "eur" });
  });
});

describe("GET /prices/{app_id}", () => {
  test("lists newest first with page, limit and the paging headers", async () => {
    const owner = await signup(fx.app);
    const app = await createApp(fx.app, owner.token);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await createPrice(fx.app, owner.token, app.id, { name: `p${i}` })).id);
    const first = await call(fx.app, "GET", `/prices/${app.id}?page=1&limit=2`, { token: owner.token });
    expectStatus(first, 200);
    assert.deepEqual(
      first.body.map((p: { id: string }) => p.id),
      [ids[4], ids[3]],
    );
    assert.equal(first.headers["x-total-count"], "5");
    assert.match(String(first.headers.link), /rel="next"/);
    const last = await call(fx.app, "GET", `/prices/${app.id}?page=3&limit=2`, { token: owner.token });
    assert.deepEqual(
      last.body.map((p: { id: string }) => p.id),
      [ids[0]],
    );
    const all = await call(fx.app, "GET", `/prices/${app.id}`, { token: owner.token });
    assert.equal(all.body.length, 5);
  });
});

describe("PATCH /prices/{app_id}/{price_id}", () => {
  test("changes the fields given and keeps the others", async () => {
    const price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      metadata: { a: 1 },
    });
    const trigger = await createTestTrigger(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    const answer = await call(fx.app, "PATCH", `/prices/${fx.tenants.app.id}/${price.id}`, {
      token: fx.tenants.developer.token,
      body: { name: "Renamed", amount: "20.10", trigger_id: trigger.id, contract: null },
    });
    const changed = expectStatus(answer, 200);
    assert.equal(changed.name, "Renamed");
    assert.equal(changed.amount, 20.1);
    assert.equal(changed.trigger_id, trigger.id);
    assert.deepEqual(changed.metadata, { a: 1 });
    assert.equal(changed.currency, "usd");
    assert.equal(changed.created_at, price.created_at);
  });

  test("currency changes need an amount; amounts are checked in the new currency", async () => {
    const price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    const url = `/prices/${fx.tenants.app.id}/${price.id}`;
    const alone = await call(fx.app, "PATCH", url, {
      token: fx.tenants.owner.token,
      body: { currency: "jpy" },
    });
    assert.equal(assertProblem(alone, 400, "validation_failed").errors[0].path, "/body/amount");
    const excess = await call(fx.app, "PATCH", url, {
      token: fx.tenants.owner.token,
      body: { currency: "jpy", amount: 12.5 },
    });
    assert.equal(assertProblem(excess, 400, "validation_failed").errors[0].path, "/body/amount");
    const excessSame = await call(fx.app, "PATCH", url, {
      token: fx.tenants.owner.token,
      body: { amount: 1.001 },
    });
    assert.equal(assertProblem(excessSame, 400, "validation_failed").errors[0].path, "/body/amount");
    const ok = expectStatus(
      await call(fx.app, "PATCH", url, {
        token: fx.tenants.owner.token,
        body: { currency: "JPY", amount: 1250 },
      }),
      200,
    );
    assert.equal(ok.currency, "jpy");
    assert.equal(ok.amount, 1250);
  });

  test("expired: by PATCH, and by expires_at against the service clock", async () => {
    // An hour from now, so the caller's session (checked against the same clock) stays valid.
    const expiresAt = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_600_000);
    const price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      expires_at: expiresAt.toISOString(),
    });
    const url = `/prices/${fx.tenants.app.id}/${price.id}`;
    assert.equal(price.expired, false);
    assert.equal(price.expires_at, expiresAt.toISOString());
    try {
      clock.set(expiresAt);
      assert.equal(
        expectStatus(await call(fx.app, "GET", url, { token: fx.tenants.owner.token }), 200).expired,
        true,
      );
      assert.equal(expectStatus(await call(fx.app, "GET", `/p/${price.id}`), 200).expired, true);
      clock.set(new Date(expiresAt.getTime() - 1000));
      assert.equal(
        expectStatus(await call(fx.app, "GET", url, { token: fx.tenants.owner.token }), 200).expired,
        false,
      );
    } finally {
      clock.reset();
    }
    const expired = expectStatus(
      await call(fx.app, "PATCH", url, { token: fx.tenants.owner.token, body: { expired: true } }),
      200,
    );
    assert.equal(expired.expired, true);
    const listed = (
      await call(fx.app, "GET", `/prices/${fx.tenants.app.id}?limit=100`, { token: fx.tenants.owner.token })
    ).body;
    assert.equal(listed.find((p: { id: string }) => p.id === price.id).expired, true);
    const cleared = await call(fx.app, "PATCH", url, {
      token: fx.tenants.owner.token,
      body: { expired: false, expires_at: null },
    });
    assert.equal(expectStatus(cleared, 200).expired, false);
  });

  test("refuses a static price of zero, unknown fields and bad values", async () => {
    const price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      type: "dynamic",
      amount: 0,
    });
    const url = `/prices/${fx.tenants.app.id}/${price.id}`;
    const toStatic = await call(fx.app, "PATCH", url, {
      token: fx.tenants.owner.token,
      body: { type: "static" },
    });
    assert.equal(assertProblem(toStatic, 400, "validation_failed").errors[0].path, "/body/type");
    const unknown = await call(fx.app, "PATCH", url, { token: fx.tenants.owner.token, body: { views: 100 } });
    assert.equal(assertProblem(unknown, 400, "validation_failed").errors[0].path, "/body/views");
    const malformed = await call(fx.app, "PATCH", url, { token: fx.tenants.owner.token, raw: '{"name":' });
    assertProblem(malformed, 400, "validation_failed");
    const unchanged = expectStatus(await call(fx.app, "GET", url, { token: fx.tenants.owner.token }), 200);
    assert.equal(unchanged.type, "dynamic");
    assert.equal(unchanged.views, 0);
  });
});

describe("DELETE /prices/{app_id}/{price_id}", () => {
  test("deletes a price without payments (204), then it is gone", async () => {
    const price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    const url = `/prices/${fx.tenants.app.id}/${price.id}`;
    const answer = await call(fx.app, "DELETE", url, { token: fx.tenants.developer.token });
    assert.equal(answer.status, 204);
    assert.equal(answer.text, "");
    assertProblem(await call(fx.app, "GET", url, { token: fx.tenants.owner.token }), 404, "not_found");
    assertProblem(await call(fx.app, "DELETE", url, { token: fx.tenants.owner.token }), 404, "not_found");
  });
});
