// What an auction's close does with its bids (docs/auctions.md, "Closing"): the winner is charged,
// the loser released, the auction and its prices expired and `auction.ended` emitted once, and
// later bids are 409; an auction with no bid closes without charging anything.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  createAuction,
  endAuctionNow,
  endsLater,
  placeBid,
  shopperSession,
  useAuctionEventsApp,
  waitForBid,
} from "../helpers/auctions.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { waitForStatus } from "../helpers/payments.ts";

const { fx, events } = useAuctionEventsApp();

describe("bids", () => {
  test("at the end: the winner is charged, the loser released, everything expired; later bids 409", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      amount: 10,
      ends_at: endsLater(),
    });
    const [fay, gus] = await Promise.all([
      shopperSession(fx.app, fx.tenants.app.id, auction.id, "fay@example.com"),
      shopperSession(fx.app, fx.tenants.app.id, auction.id, "gus@example.com"),
    ]);
    const low = expectStatus(await placeBid(fx.app, fay.token, fx.tenants.app.id, auction.id, 10), 202);
    await waitForBid(fx.app, fx.tenants.owner.token, fx.tenants.app.id, auction.id, low.id, "placed");
    const high = expectStatus(await placeBid(fx.app, gus.token, fx.tenants.app.id, auction.id, 20), 202);
    await waitForBid(fx.app, fx.tenants.owner.token, fx.tenants.app.id, auction.id, high.id, "placed");
    await endAuctionNow(fx.app, fx.tenants.owner.token, fx.tenants.app.id, auction.id);
    const view = await waitForBid(
      fx.app,
      fx.tenants.owner.token,
      fx.tenants.app.id,
      auction.id,
      high.id,
      "won",
    );
    assert.equal(view.expired, true);
    assert.equal(view.winner_bid_id, high.id);
    assert.equal(view.on_bid_payment_intent.expired, true);
    assert.equal(view.on_end_payment_intent.expired, true);
    await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, high.payment.id, "paid");
    const loser = await waitForStatus(
      fx.app,
      fx.tenants.owner.token,
      fx.tenants.app.id,
      low.payment.id,
      "cancelled",
    );
    assert.equal(loser.status, "cancelled");
    const ended = (await events("auction.ended")).filter(
      (e) => (e.data as Record<string, unknown>).auction_id === auction.id,
    );
    assert.equal(ended.length, 1);
    assert.equal((ended[0].data as Record<string, unknown>).winner_bid_id, high.id);
    assertProblem(await placeBid(fx.app, fay.token, fx.tenants.app.id, auction.id, 50), 409, "conflict");
  });

  test("an auction with no bid closes without charging anything", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      ends_at: new Date(Date.now() + 1500).toISOString(),
    });
    const closed = await (async () => {
      for (let i = 0; i < 100; i++) {
        const view = expectStatus(
          await call(fx.app, "GET", `/auctions/${fx.tenants.app.id}/${auction.id}`, {
            token: fx.tenants.owner.token,
          }),
          200,
        );
        if (view.expired) return view;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error("the auction never closed");
    })();
    assert.equal(closed.winner_bid_id, null);
    const payments = expectStatus(
      await call(
        fx.app,
        "GET",
        `/payments/${fx.tenants.app.id}?price_id=${auction.on_bid_payment_intent.id}`,
        {
          token: fx.tenants.owner.token,
        },
      ),
      200,
    );
    assert.deepEqual(payments, []);
  });
});
