import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { holdWindow } from "../../src/modules/auctions/runner-up.ts";
import { webhookEvents } from "../../src/modules/webhooks/tables.ts";
import {
  createAuction,
  endAuctionNow,
  endsLater,
  listenToAuctionEvents,
  placeBid,
  shopperSession,
  waitForBid,
} from "../helpers/auctions.ts";
import { FakeClock } from "../helpers/clock.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { CARDS, waitForStatus } from "../helpers/payments.ts";
import { evmTrigger } from "../helpers/triggers.ts";
import { newMasterKey } from "../helpers/wallets.ts";
import type { Receiver } from "../helpers/webhooks.ts";

let receiver: Receiver;
let triggerId: string;

const input = (order: string) => ({
  trigger_data_input: {
    params_data_input: {
      receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      quantity: 1,
      order_id: order,
    },
  },
});

// The service's clock: the first test lets a hold age past its live window, as days would.
const clock = new FakeClock();
const fx = useTestApp(
  {
    WEBHOOKS_ALLOW_LOOPBACK: "true",
    SECRETS_MASTER_KEY: newMasterKey(),
    EVM_TESTNET_CONFIRMATIONS: "2",
    EVM_TESTNET_BLOCK_SECONDS: "1",
  },
  {
    now: clock.now,
    async setUp() {
      receiver = await listenToAuctionEvents(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
      const wallet = expectStatus(
        await call(fx.app, "POST", `/wallets/${fx.tenants.app.id}`, {
          token: fx.tenants.owner.token,
          body: { name: "W", type: "evm" },
        }),
        201,
      );
      triggerId = expectStatus(
        await call(fx.app, "POST", `/triggers/${fx.tenants.app.id}`, {
          token: fx.tenants.owner.token,
          body: evmTrigger(wallet.id),
        }),
        201,
      ).id;
    },
  },
);
after(async () => {
  await receiver.stop();
});

interface Placed {
  id: string;
  payment: { id: string };
}

const eventsOf = async (type: string, auctionId: string) =>
  (await fx.app.deps.db.select().from(webhookEvents).where(eq(webhookEvents.type, type)))
    .map((e) => e.data as Record<string, any>)
    .filter((d) => d.auction_id === auctionId);

/** The auction once bid `bidId` reached `status` (jobs move it), as its owner reads it. */
const bidBecomes = (auctionId: string, bidId: string, status: string) =>
  waitForBid(fx.app, fx.tenants.owner.token, fx.tenants.app.id, auctionId, bidId, status);

/** The payment once it reached `status`, as the app reads it. */
const paymentBecomes = (paymentId: string, status: string) =>
  waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, paymentId, status);

/** `amount` bid by `shopper`, answered once its hold landed and it stands. */
async function standingBid(auctionId: string, shopper: { token: string }, amount: number, order: string) {
  const placed = expectStatus(
    await placeBid(fx.app, shopper.token, fx.tenants.app.id, auctionId, amount, CARDS.ok, input(order)),
    202,
  );
  await bidBecomes(auctionId, placed.id, "placed");
  return placed as Placed;
}

/** The app cancels a bid's payment, as it may while the call was not signed. */
async function cancelByTheApp(paymentId: string) {
  expectStatus(
    await call(fx.app, "POST", `/payments/${fx.tenants.app.id}/${paymentId}/cancel`, {
      token: fx.tenants.owner.token,
      body: {},
    }),
    200,
  );
}

describe("runners-up", () => {
  test("a runner-up whose hold is no longer live is dropped, not made the winner: the item is unsold", async () => {
    const { holdMs, marginMs } = holdWindow(fx.app.deps);
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      trigger_id: triggerId,
      // Open for longer than a hold lives: the auction runs for days.
      ends_at: new Date(clock.now().getTime() + holdMs + 3600_000).toISOString(),
    });
    const kim = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "kim@example.com");
    const low = await standingBid(auction.id, kim, 10, "k");
    // Days later, an hour before Kim's hold leaves its live window (its lapse is `marginMs` on),
    // Lee outbids her: Kim's hold is kept as the runner-up.
    clock.advance(holdMs - marginMs - 3600_000);
    try {
      const lee = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "lee@example.com");
      const high = await standingBid(auction.id, lee, 11, "sandbox:revert");
      // Two hours on, the auction ends: Kim's hold is past its live window, Lee's is fresh.
      clock.advance(2 * 3600_000);
      await endAuctionNow(fx.app, fx.tenants.owner.token, fx.tenants.app.id, auction.id);
      await expectUnsold(auction.id, low, high);
    } finally {
      clock.reset();
    }
  });

  /** Lee's call reverts and Kim's hold is past its live window: nobody wins, both holds released. */
  async function expectUnsold(auctionId: string, low: Placed, high: Placed) {
    const view = await bidBecomes(auctionId, high.id, "failed");
    assert.equal(view.winner_bid_id, null);
    await bidBecomes(auctionId, low.id, "expired");
    await paymentBecomes(low.payment.id, "cancelled");
    await paymentBecomes(high.payment.id, "cancelled");
    const changed = await eventually(async () => (await eventsOf("auction.winner_changed", auctionId))[0]);
    assert.equal(changed.previous_bid_id, high.id);
    assert.equal(changed.winner_bid_id, null);
    assert.equal(changed.payment_id, null);
    assert.equal((await eventsOf("auction.bid_expired", auctionId))[0]?.bid_id, low.id);
  }

  test("the app cancels the standing bid's payment: it stops standing, and the runner-up wins at the end", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      trigger_id: triggerId,
      ends_at: endsLater(),
    });
    const max = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "max@example.com");
    const ned = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "ned@example.com");
    const low = await standingBid(auction.id, max, 10, "m");
    const high = await standingBid(auction.id, ned, 11, "n");
    await cancelByTheApp(high.payment.id);
    let view = await bidBecomes(auction.id, high.id, "expired");
    assert.equal(view.bids.find((b: { id: string }) => b.id === high.id).reason, "its payment is cancelled");
    await endAuctionNow(fx.app, fx.tenants.owner.token, fx.tenants.app.id, auction.id);
    view = await bidBecomes(auction.id, low.id, "won");
    assert.equal(view.winner_bid_id, low.id);
    const paid = await paymentBecomes(low.payment.id, "paid");
    assert.deepEqual(paid.trigger_data_input, input("m").trigger_data_input);
    const won = view.bids.filter((b: { status: string }) => b.status === "won");
    assert.equal(won.length, 1, "one lot, one winner");
  });

  test("the standing bid's payment cancelled: the runner-up stands again, so a lower bid cannot stand and keep its hold", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      trigger_id: triggerId,
      ends_at: endsLater(),
    });
    const [amy, bob, cat] = await Promise.all(
      ["amy", "bob", "cat"].map((name) =>
        shopperSession(fx.app, fx.tenants.app.id, auction.id, `${name}@example.com`),
      ),
    );
    const runnerUp = await standingBid(auction.id, amy, 14, "14");
    const standing = await standingBid(auction.id, bob, 15, "15");
    await cancelByTheApp(standing.payment.id);
    // Amy's held 14 stands again: it is what would win now, so it is what a new bid must beat.
    const view = await bidBecomes(auction.id, runnerUp.id, "placed");
    assert.equal(view.current_amount, 14);
    const placedAgain = await eventually(
      async () =>
        (await eventsOf("auction.bid_placed", auction.id)).filter((e) => e.bid_id === runnerUp.id)[1],
    );
    assert.equal(placedAgain.amount, 14);
    // A bid under it is refused at once, not placed to lose at the close with its card held.
    const low = await placeBid(fx.app, cat.token, fx.tenants.app.id, auction.id, 13, CARDS.ok, input("13"));
    assert.equal(low.status, 409);
    const winner = await standingBid(auction.id, cat, 16, "16");
    await endAuctionNow(fx.app, fx.tenants.owner.token, fx.tenants.app.id, auction.id);
    await bidBecomes(auction.id, winner.id, "won");
    await paymentBecomes(winner.payment.id, "paid");
    // Every other card released: the runner-up's once the winner's payment is captured.
    for (const released of [runnerUp, standing]) {
      await paymentBecomes(released.payment.id, "cancelled");
    }
  });
});
