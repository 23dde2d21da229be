import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  createAuction,
  placeBid,
  shopperSession,
  useAuctionEventsApp,
  waitForBid,
} from "../helpers/auctions.ts";
import { eventually } from "../helpers/contract.ts";
import { assertProblem, call, expectStatus, signup } from "../helpers/http.ts";
import { CARDS, waitForStatus } from "../helpers/payments.ts";
import type { Receiver } from "../helpers/webhooks.ts";

let receiver: Receiver;
const { fx, events } = useAuctionEventsApp((listening) => {
  receiver = listening;
});

describe("bids", () => {
  test("a bid is placed once its hold lands; the outbid hold is kept as the runner-up, older ones released", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      amount: 10,
      min_increment: 2,
    });
    const alice = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "alice@example.com");
    const bob = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "bob@example.com");
    const first = expectStatus(await placeBid(fx.app, alice.token, fx.tenants.app.id, auction.id, 10), 202);
    assert.equal(first.status, "pending");
    assert.equal(first.amount, 10);
    assert.match(first.payment.id, /^pay_/);
    // The interface's Bid: the shopper, and the payment as a Payment (the app seen by a non-member).
    assert.deepEqual(Object.keys(first.shopper).sort(), [
      "auth_method",
      "created_at",
      "disabled",
      "id",
      "phone_or_email",
    ]);
    assert.equal(first.shopper.phone_or_email, "alice@example.com");
    assert.equal(first.payment.status, "pending");
    assert.equal(first.payment.payment_provider, "card");
    assert.equal(first.payment.price.id, auction.on_bid_payment_intent.id);
    assert.equal(first.payment.app.id, fx.tenants.app.id);
    assert.equal(first.payment.app.is_member, false);
    assert.equal(first.payment.payment_token, null);
    assert.deepEqual(first.payment.trigger_data_input, { params_data_input: {} });
    assert.equal(typeof first.payment.price_item.amount_total, "number");
    let view = await waitForBid(
      fx.app,
      fx.tenants.owner.token,
      fx.tenants.app.id,
      auction.id,
      first.id,
      "placed",
    );
    assert.equal(view.current_amount, 10);
    const bid = view.bids[0];
    assert.equal(bid.shopper.phone_or_email, "alice@example.com");
    assert.equal(bid.shopper.auth_method, "email");
    assert.equal(bid.payment.status, "hold");
    assert.equal(bid.payment.price.id, auction.on_bid_payment_intent.id);
    assert.equal(bid.auction, auction.id);

    // Not beating the standing bid by the increment: 409; below the start: 400.
    assertProblem(await placeBid(fx.app, bob.token, fx.tenants.app.id, auction.id, 11), 409, "conflict");
    assertProblem(
      await placeBid(fx.app, bob.token, fx.tenants.app.id, auction.id, 5),
      400,
      "validation_failed",
    );

    const second = expectStatus(await placeBid(fx.app, bob.token, fx.tenants.app.id, auction.id, 12), 202);
    view = await waitForBid(
      fx.app,
      fx.tenants.owner.token,
      fx.tenants.app.id,
      auction.id,
      second.id,
      "placed",
    );
    const outbid = view.bids.find((b: { id: string }) => b.id === first.id);
    assert.equal(outbid.status, "outbid");
    // The best other bid keeps its hold until the winner pays (AUCTION_BACKUP_HOLDS, 1 by default).
    assert.equal(outbid.payment.status, "hold");
    assert.equal(view.current_amount, 12);
    const outbidEvents = await events("auction.outbid");
    assert.equal(outbidEvents.length, 1);
    assert.equal((outbidEvents[0].data as Record<string, unknown>).hold_kept, true);
    assert.equal((await events("auction.bid_placed")).length, 2);
    // And the app's endpoint hears about it.
    await eventually(() => receiver.received.some((r) => r.body.includes("auction.outbid")));

    // Alice raises her bid: Bob's is now the runner-up, and Alice's own older hold is released.
    const third = expectStatus(await placeBid(fx.app, alice.token, fx.tenants.app.id, auction.id, 14), 202);
    view = await waitForBid(
      fx.app,
      fx.tenants.owner.token,
      fx.tenants.app.id,
      auction.id,
      third.id,
      "placed",
    );
    const byId = (id: string) => view.bids.find((b: { id: string }) => b.id === id);
    assert.equal(byId(second.id).status, "outbid");
    assert.equal(byId(second.id).payment.status, "hold");
    await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, first.payment.id, "cancelled");
  });

  test("with AUCTION_BACKUP_HOLDS=0 an outbid hold is released at once", async () => {
    const setting = fx.app.deps.config.auctionBackupHolds;
    fx.app.deps.config.auctionBackupHolds = 0;
    try {
      const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { amount: 10 });
      const ivy = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "ivy@example.com");
      const jon = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "jon@example.com");
      const low = expectStatus(await placeBid(fx.app, ivy.token, fx.tenants.app.id, auction.id, 10), 202);
      await waitForBid(fx.app, fx.tenants.owner.token, fx.tenants.app.id, auction.id, low.id, "placed");
      const high = expectStatus(await placeBid(fx.app, jon.token, fx.tenants.app.id, auction.id, 11), 202);
      await waitForBid(fx.app, fx.tenants.owner.token, fx.tenants.app.id, auction.id, high.id, "placed");
      await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, low.payment.id, "cancelled");
      const kept = (await events("auction.outbid")).find(
        (e) => (e.data as Record<string, unknown>).bid_id === low.id,
      );
      assert.ok(kept, "auction.outbid for the lower bid");
      assert.equal((kept.data as Record<string, unknown>).hold_kept, false);
    } finally {
      fx.app.deps.config.auctionBackupHolds = setting;
    }
  });

  test("bids are listed and read as Bids by the app; other tenants get 404, no credential 401", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    const kay = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "kay@example.com");
    const placed = expectStatus(await placeBid(fx.app, kay.token, fx.tenants.app.id, auction.id, 20), 202);
    await waitForBid(fx.app, fx.tenants.owner.token, fx.tenants.app.id, auction.id, placed.id, "placed");
    const base = `/auctions/${fx.tenants.app.id}/${auction.id}/bids`;
    const list = await call(fx.app, "GET", `${base}?limit=1`, { token: fx.tenants.developer.token });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.headers["x-total-count"], "1");
    assert.deepEqual(
      list.body.map((b: { id: string }) => b.id),
      [placed.id],
    );
    const one = expectStatus(
      await call(fx.app, "GET", `${base}/${placed.id}`, { token: fx.tenants.owner.token }),
      200,
    );
    assert.equal(one.status, "placed");
    assert.equal(one.payment.status, "hold");
    assert.equal(one.payment.app.is_member, true);
    assert.equal(one.shopper.phone_or_email, "kay@example.com");
    assertProblem(await call(fx.app, "GET", base), 401, "unauthenticated");
    assertProblem(await call(fx.app, "GET", base, { token: fx.tenants.outsider.token }), 404, "not_found");
    assertProblem(
      await call(fx.app, "GET", `${base}/${placed.id}`, { token: fx.tenants.outsider.token }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "GET", `/auctions/${fx.tenants.otherApp.id}/${auction.id}/bids`, {
        token: fx.tenants.outsider.token,
      }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "GET", `${base}/bid_unknown`, { token: fx.tenants.owner.token }),
      404,
      "not_found",
    );
  });

  test("a declined card leaves the bid refused and its payment failed", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    const carol = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "carol@example.com");
    const bid = expectStatus(
      await placeBid(fx.app, carol.token, fx.tenants.app.id, auction.id, 15, CARDS.declined),
      202,
    );
    const view = await waitForBid(
      fx.app,
      fx.tenants.owner.token,
      fx.tenants.app.id,
      auction.id,
      bid.id,
      "refused",
    );
    assert.equal(view.bids[0].payment.status, "failed");
    assert.equal(view.current_amount, null);
  });

  test("a bid in another currency is converted, with the rate recorded", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      amount: 10,
      currency: "usd",
    });
    const dan = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "dan@example.com");
    const bid = expectStatus(
      await placeBid(fx.app, dan.token, fx.tenants.app.id, auction.id, 20, CARDS.ok, { currency: "EUR" }),
      202,
    );
    // The sandbox's rate: 1 eur = 1.08 usd.
    assert.equal(bid.amount, 21.6);
    assert.equal(bid.currency, "usd");
    assert.deepEqual(bid.currency_conversion, { from_currency: "eur", from_amount: 20, rate: 1.08 });
    const view = await waitForBid(
      fx.app,
      fx.tenants.owner.token,
      fx.tenants.app.id,
      auction.id,
      bid.id,
      "placed",
    );
    assert.deepEqual(view.currency_conversion, { from_currency: "eur", from_amount: 20, rate: 1.08 });
    assert.deepEqual(view.bids[0].currency_conversion, bid.currency_conversion);
    assertProblem(
      await placeBid(fx.app, dan.token, fx.tenants.app.id, auction.id, 30, CARDS.ok, { currency: "jpy" }),
      400,
      "validation_failed",
    );
  });

  test("security: no token, a user's token, another app's shopper: 401; unknown fields 400", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    const url = `/auctions/${fx.tenants.app.id}/${auction.id}/bids`;
    const body = {
      amount: 20,
      payment_method: { type: "card", number: CARDS.ok, exp_month: 12, exp_year: 2030, cvc: "123" },
    };
    assertProblem(await call(fx.app, "POST", url, { body }), 401, "unauthenticated");
    assertProblem(
      await call(fx.app, "POST", url, { token: fx.tenants.owner.token, body }),
      401,
      "unauthenticated",
    );
    assertProblem(
      await call(fx.app, "POST", url, { token: "shp_forgedforgedforgedforgedforged", body }),
      401,
      "unauthenticated",
    );
    const other = await signup(fx.app);
    const otherApp = expectStatus(
      await call(fx.app, "POST", "/apps", {
        token: other.token,
        body: { name: "Other", app_fee: 0, use_explorer: false },
      }),
      201,
    );
    const otherAuction = await createAuction(fx.app, other.token, otherApp.id);
    const stranger = await shopperSession(fx.app, otherApp.id, otherAuction.id, "stranger@example.com");
    assertProblem(await call(fx.app, "POST", url, { token: stranger.token, body }), 401, "unauthenticated");
    // The auction id under another app: not found.
    const eve = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "eve@example.com");
    assertProblem(
      await call(fx.app, "POST", `/auctions/${fx.tenants.app.id}/${otherAuction.id}/bids`, {
        token: eve.token,
        body,
      }),
      404,
      "not_found",
    );
    const unknown = await call(fx.app, "POST", url, { token: eve.token, body: { ...body, surprise: 1 } });
    const problem = assertProblem(unknown, 400, "validation_failed");
    assert.ok(problem.errors.some((e: { path: string }) => e.path === "/body/surprise"));
    assertProblem(
      await call(fx.app, "POST", url, { token: eve.token, raw: '{"amount": ' }),
      400,
      "validation_failed",
    );
    assert.ok(
      fx.app.logs.every((line) => !line.includes(CARDS.ok)),
      "card numbers are never logged",
    );
  });

  test("a retried bid with the same Idempotency-Key is answered, not held twice", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    const hal = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "hal@example.com");
    const headers = { "idempotency-key": "bid-attempt-1" };
    const first = expectStatus(
      await placeBid(fx.app, hal.token, fx.tenants.app.id, auction.id, 30, CARDS.ok, {}, headers),
      202,
    );
    const again = expectStatus(
      await placeBid(fx.app, hal.token, fx.tenants.app.id, auction.id, 30, CARDS.ok, {}, headers),
      202,
    );
    assert.equal(again.id, first.id);
    assert.equal(again.payment.id, first.payment.id);
    assertProblem(
      await placeBid(fx.app, hal.token, fx.tenants.app.id, auction.id, 31, CARDS.ok, {}, headers),
      409,
      "idempotency_key_reused",
    );
    const bad = await placeBid(
      fx.app,
      hal.token,
      fx.tenants.app.id,
      auction.id,
      31,
      CARDS.ok,
      {},
      { "idempotency-key": "with space" },
    );
    assertProblem(bad, 400, "validation_failed");
    const view = await waitForBid(
      fx.app,
      fx.tenants.owner.token,
      fx.tenants.app.id,
      auction.id,
      first.id,
      "placed",
    );
    assert.equal(view.bids.length, 1);
  });
});
