import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createAuction, inMinutes, placeBid, shopperSession, waitForBid } from "../helpers/auctions.ts";
import { checkRouteBasics } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { apiKeyOf } from "../helpers/prices.ts";

const fx = useTestApp();

describe("auctions: create, read, list", () => {
  test("creating an auction creates its two prices, linked to it", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      amount: "25.50",
      min_increment: 2,
    });
    assert.match(auction.id, /^auc_/);
    assert.equal(auction.amount, 25.5);
    assert.equal(auction.min_increment, 2);
    assert.equal(auction.currency, "usd");
    assert.equal(auction.expired, false);
    assert.equal(auction.views, 0);
    assert.equal(auction.network_type, "testnet");
    assert.deepEqual(auction.bids, []);
    assert.equal(auction.current_amount, null);
    assert.equal(auction.currency_conversion, null);
    assert.equal(auction.app.id, fx.tenants.app.id);
    assert.equal(auction.on_bid_payment_intent.category, "bid");
    assert.equal(auction.on_end_payment_intent.category, "auction");
    for (const price of [auction.on_bid_payment_intent, auction.on_end_payment_intent]) {
      assert.equal(price.amount, 25.5);
      assert.equal(price.metadata.auction_id, auction.id);
      const read = expectStatus(
        await call(fx.app, "GET", `/prices/${fx.tenants.app.id}/${price.id}`, {
          token: fx.tenants.owner.token,
        }),
        200,
      );
      assert.equal(read.category, price.category);
    }
  });

  test("a developer and the app's API key may create; the list pages with headers", async () => {
    await createAuction(fx.app, fx.tenants.developer.token, fx.tenants.app.id, { name: "By developer" });
    const key = await apiKeyOf(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    await createAuction(fx.app, key, fx.tenants.app.id, { name: "By key" });
    const page = await call(fx.app, "GET", `/auctions/${fx.tenants.app.id}?page=1&limit=2`, {
      token: fx.tenants.owner.token,
    });
    expectStatus(page, 200);
    assert.equal(page.body.length, 2);
    assert.equal(page.body[0].name, "By key");
    assert.equal(Number(page.headers["x-total-count"]), 3);
    assert.match(String(page.headers.link), /rel="next"/);
  });

  test("bad bodies are refused with the field named", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ends_at: new Date(Date.now() - 1000).toISOString() }, "/body/ends_at"],
      [{ amount: 0 }, "/body/amount"],
      [{ currency: "zzz" }, "/body/currency"],
      [{ min_increment: 0 }, "/body/min_increment"],
      [{ amount: "1.234" }, "/body/amount"],
    ];
    for (const [body, path] of cases) {
      const answer = await call(fx.app, "POST", `/auctions/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: { name: "X", amount: 10, currency: "usd", ends_at: inMinutes(5), ...body },
      });
      const problem = assertProblem(answer, 400, "validation_failed");
      assert.ok(
        problem.errors.some((e: { path: string }) => e.path === path),
        JSON.stringify(problem.errors),
      );
    }
    const missing = await call(fx.app, "POST", `/auctions/${fx.tenants.app.id}`, {
      token: fx.tenants.owner.token,
      body: { name: "X" },
    });
    assertProblem(missing, 400, "validation_failed");
  });

  test("every route: 401 without a credential, 400 on unknown fields and bad paging", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    const routes = [
      {
        method: "POST",
        url: `/auctions/${fx.tenants.app.id}`,
        body: { name: "A", amount: 1, currency: "usd", ends_at: inMinutes(5) },
      },
      { method: "GET", url: `/auctions/${fx.tenants.app.id}`, list: true },
      { method: "GET", url: `/auctions/${fx.tenants.app.id}/${auction.id}` },
      { method: "PATCH", url: `/auctions/${auction.id}`, body: { name: "Renamed" } },
      { method: "PATCH", url: `/auctions/${fx.tenants.app.id}/shoppers/shp_none`, body: { disabled: true } },
      { method: "DELETE", url: `/auctions/${fx.tenants.app.id}/${auction.id}` },
    ];
    for (const route of routes) await checkRouteBasics(fx.app, { ...route, token: fx.tenants.owner.token });
  });

  test("another tenant's auctions are 404 on every route", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    const outsider = fx.tenants.outsider.token;
    assertProblem(
      await call(fx.app, "GET", `/auctions/${fx.tenants.app.id}`, { token: outsider }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "GET", `/auctions/${fx.tenants.app.id}/${auction.id}`, { token: outsider }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "POST", `/auctions/${fx.tenants.app.id}`, {
        token: outsider,
        body: { name: "A", amount: 1, currency: "usd", ends_at: inMinutes(5) },
      }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "PATCH", `/auctions/${auction.id}`, { token: outsider, body: { name: "Mine now" } }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "DELETE", `/auctions/${fx.tenants.app.id}/${auction.id}`, { token: outsider }),
      404,
      "not_found",
    );
    // The auction exists, but not in the outsider's own app either.
    assertProblem(
      await call(fx.app, "GET", `/auctions/${fx.tenants.otherApp.id}/${auction.id}`, { token: outsider }),
      404,
      "not_found",
    );
    const otherKey = await apiKeyOf(fx.app, outsider, fx.tenants.otherApp.id);
    assertProblem(
      await call(fx.app, "PATCH", `/auctions/${auction.id}`, { token: otherKey, body: { name: "x" } }),
      404,
      "not_found",
    );
    const still = expectStatus(
      await call(fx.app, "GET", `/auctions/${fx.tenants.app.id}/${auction.id}`, {
        token: fx.tenants.owner.token,
      }),
      200,
    );
    assert.equal(still.name, "Signed print");
  });
});

describe("auctions: change and delete", () => {
  test("PATCH answers the id as a JSON string and changes the auction and its prices", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    const answer = await call(fx.app, "PATCH", `/auctions/${auction.id}`, {
      token: fx.tenants.owner.token,
      body: { name: "New name", amount: 30, currency: "eur" },
    });
    expectStatus(answer, 200);
    assert.equal(answer.body, auction.id);
    assert.equal(answer.text, JSON.stringify(auction.id));
    const read = expectStatus(
      await call(fx.app, "GET", `/auctions/${fx.tenants.app.id}/${auction.id}`, {
        token: fx.tenants.owner.token,
      }),
      200,
    );
    assert.equal(read.name, "New name");
    assert.equal(read.amount, 30);
    assert.equal(read.currency, "eur");
    assert.equal(read.on_bid_payment_intent.amount, 30);
    assert.equal(read.on_end_payment_intent.currency, "eur");
    assert.equal(read.on_end_payment_intent.name, "New name");
    assertProblem(
      await call(fx.app, "PATCH", `/auctions/${auction.id}`, {
        token: fx.tenants.owner.token,
        body: { currency: "usd" },
      }),
      400,
      "validation_failed",
    );
    assertProblem(
      await call(fx.app, "PATCH", `/auctions/auc_missing`, {
        token: fx.tenants.owner.token,
        body: { name: "x" },
      }),
      404,
      "not_found",
    );
  });

  test("after the first bid: amount and currency 409, name still changes; DELETE 409", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    const shopper = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "first@example.com");
    const bid = expectStatus(await placeBid(fx.app, shopper.token, fx.tenants.app.id, auction.id, 12), 202);
    await waitForBid(fx.app, fx.tenants.owner.token, fx.tenants.app.id, auction.id, bid.id, "placed");
    assertProblem(
      await call(fx.app, "PATCH", `/auctions/${auction.id}`, {
        token: fx.tenants.owner.token,
        body: { amount: 5 },
      }),
      409,
      "conflict",
    );
    expectStatus(
      await call(fx.app, "PATCH", `/auctions/${auction.id}`, {
        token: fx.tenants.owner.token,
        body: { name: "Renamed" },
      }),
      200,
    );
    assertProblem(
      await call(fx.app, "DELETE", `/auctions/${fx.tenants.app.id}/${auction.id}`, {
        token: fx.tenants.owner.token,
      }),
      409,
      "conflict",
    );
  });

  test("DELETE before any bid removes the auction and its prices", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    assertProblem(
      await call(fx.app, "DELETE", `/prices/${fx.tenants.app.id}/${auction.on_bid_payment_intent.id}`, {
        token: fx.tenants.owner.token,
      }),
      409,
      "conflict",
    );
    assertProblem(
      await call(fx.app, "PATCH", `/prices/${fx.tenants.app.id}/${auction.on_end_payment_intent.id}`, {
        token: fx.tenants.owner.token,
        body: { amount: 1 },
      }),
      409,
      "conflict",
    );
    expectStatus(
      await call(fx.app, "PATCH", `/prices/${fx.tenants.app.id}/${auction.on_end_payment_intent.id}`, {
        token: fx.tenants.owner.token,
        body: { metadata: { auction_id: auction.id, note: "framed" } },
      }),
      200,
    );
    const answer = await call(fx.app, "DELETE", `/auctions/${fx.tenants.app.id}/${auction.id}`, {
      token: fx.tenants.owner.token,
    });
    assert.equal(answer.status, 204);
    assertProblem(
      await call(fx.app, "GET", `/auctions/${fx.tenants.app.id}/${auction.id}`, {
        token: fx.tenants.owner.token,
      }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "GET", `/prices/${fx.tenants.app.id}/${auction.on_bid_payment_intent.id}`, {
        token: fx.tenants.owner.token,
      }),
      404,
      "not_found",
    );
  });
});
