import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { and, eq, sql } from "drizzle-orm";
import type { Deps } from "../../src/deps.ts";
import { expireHold, settleBid } from "../../src/modules/auctions/bidding.ts";
import { closeAuction } from "../../src/modules/auctions/closing.ts";
import { auctions, bids } from "../../src/modules/auctions/tables.ts";
import { EXECUTE_JOB } from "../../src/modules/payments/job-names.ts";
import { paymentEvents } from "../../src/modules/payments/tables.ts";
import { webhookEvents } from "../../src/modules/webhooks/tables.ts";
import {
  createAuction,
  listenToAuctionEvents,
  placeBid,
  shopperSession,
  waitForBid,
} from "../helpers/auctions.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { expectStatus } from "../helpers/http.ts";
import { waitForStatus } from "../helpers/payments.ts";
import type { Receiver } from "../helpers/webhooks.ts";

let receiver: Receiver;

const fx = useTestApp(
  { WEBHOOKS_ALLOW_LOOPBACK: "true" },
  {
    async setUp() {
      receiver = await listenToAuctionEvents(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    },
  },
);
after(async () => {
  await receiver.stop();
});

async function jobsFor(name: string, key: string, value: string) {
  const result = await fx.app.deps.db.execute(
    sql`select count(*)::int as n from pgboss.job where name = ${name} and data->>${key} = ${value}`,
  );
  const rows = ((result as { rows?: unknown[] }).rows ?? result) as { n: number }[];
  return rows[0].n;
}

/** An auction with one standing bid, past its end time, whose scheduled closing job has not run. */
async function endedWithBid(email: string) {
  const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
  const shopper = await shopperSession(fx.app, fx.tenants.app.id, auction.id, email);
  const bid = expectStatus(await placeBid(fx.app, shopper.token, fx.tenants.app.id, auction.id, 40), 202);
  await waitForBid(fx.app, fx.tenants.owner.token, fx.tenants.app.id, auction.id, bid.id, "placed");
  await fx.app.deps.db
    .update(auctions)
    .set({ endsAt: new Date(Date.now() - 1000) })
    .where(eq(auctions.id, auction.id));
  return { auction, bid };
}

describe("closing", () => {
  test("a crash while closing leaves nothing behind; repeated closings make one winner and one capture", async () => {
    const { auction, bid } = await endedWithBid("winner@example.com");
    // The worker dies after queuing the capture, before its transaction commits.
    const crashing: Deps = {
      ...fx.app.deps,
      jobs: {
        ...fx.app.deps.jobs,
        async send(tx, name, data, options) {
          const id = await fx.app.deps.jobs.send(tx, name, data, options);
          if (name === EXECUTE_JOB) throw new Error("worker crashed");
          return id;
        },
      },
    };
    await assert.rejects(closeAuction(crashing, auction.id), /worker crashed/);
    const [afterCrash] = await fx.app.deps.db.select().from(auctions).where(eq(auctions.id, auction.id));
    assert.equal(afterCrash.closedAt, null);
    assert.equal(afterCrash.expired, false);
    assert.equal(await jobsFor(EXECUTE_JOB, "paymentId", bid.payment.id), 0);

    // The retried job, a duplicate delivery and a late rerun.
    await Promise.all([closeAuction(fx.app.deps, auction.id), closeAuction(fx.app.deps, auction.id)]);
    await closeAuction(fx.app.deps, auction.id);
    assert.equal(await jobsFor(EXECUTE_JOB, "paymentId", bid.payment.id), 1);
    const won = await fx.app.deps.db
      .select()
      .from(bids)
      .where(and(eq(bids.auctionId, auction.id), eq(bids.status, "won")));
    assert.equal(won.length, 1);
    await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, bid.payment.id, "paid");
    const paid = await fx.app.deps.db
      .select()
      .from(paymentEvents)
      .where(and(eq(paymentEvents.paymentId, bid.payment.id), eq(paymentEvents.toStatus, "paid")));
    assert.equal(paid.length, 1);
    const ended = await fx.app.deps.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.type, "auction.ended"));
    assert.equal(
      ended.filter((e) => (e.data as Record<string, unknown>).auction_id === auction.id).length,
      1,
    );
  });

  test("a hold that would lapse before the end is watched, and dropped with auction.bid_expired", async () => {
    const hours = fx.app.deps.config.auctionHoldHours;
    fx.app.deps.config.auctionHoldHours = 1;
    try {
      const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
        ends_at: new Date(Date.now() + 3 * 3600_000).toISOString(),
      });
      const shopper = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "longwait@example.com");
      const bid = expectStatus(await placeBid(fx.app, shopper.token, fx.tenants.app.id, auction.id, 25), 202);
      await waitForBid(fx.app, fx.tenants.owner.token, fx.tenants.app.id, auction.id, bid.id, "placed");
      assert.equal(await jobsFor("auctions.hold-expiring", "bidId", bid.id), 1);
      // What the scheduled job does when it runs, twice (a retry changes nothing).
      await expireHold(fx.app.deps, bid.id);
      await expireHold(fx.app.deps, bid.id);
      const view = await waitForBid(
        fx.app,
        fx.tenants.owner.token,
        fx.tenants.app.id,
        auction.id,
        bid.id,
        "expired",
      );
      assert.equal(view.current_amount, null);
      await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, bid.payment.id, "cancelled");
      const expired = await fx.app.deps.db
        .select()
        .from(webhookEvents)
        .where(eq(webhookEvents.type, "auction.bid_expired"));
      assert.equal(expired.filter((e) => (e.data as Record<string, unknown>).bid_id === bid.id).length, 1);
    } finally {
      fx.app.deps.config.auctionHoldHours = hours;
    }
  });

  test("a hold that outlasts the auction is not watched", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
    const shopper = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "short@example.com");
    const bid = expectStatus(await placeBid(fx.app, shopper.token, fx.tenants.app.id, auction.id, 25), 202);
    await waitForBid(fx.app, fx.tenants.owner.token, fx.tenants.app.id, auction.id, bid.id, "placed");
    assert.equal(await jobsFor("auctions.hold-expiring", "bidId", bid.id), 0);
  });

  test("a hold that lands after the close is refused and released, never placed", async () => {
    const { auction, bid } = await endedWithBid("late-hold@example.com");
    // The state a bid is in when the closing job runs before its hold lands.
    await fx.app.deps.db.update(bids).set({ status: "pending" }).where(eq(bids.id, bid.id));
    await closeAuction(fx.app.deps, auction.id);
    await settleBid(fx.app.deps, bid.payment.id);
    const view = await waitForBid(
      fx.app,
      fx.tenants.owner.token,
      fx.tenants.app.id,
      auction.id,
      bid.id,
      "refused",
    );
    assert.equal(view.winner_bid_id, null);
    assert.equal(view.bids[0].reason, "the auction had ended");
    await waitForStatus(fx.app, fx.tenants.owner.token, fx.tenants.app.id, bid.payment.id, "cancelled");
    assert.equal(await jobsFor(EXECUTE_JOB, "paymentId", bid.payment.id), 0);
  });
});
