import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { bids } from "../../src/modules/auctions/tables.ts";
import { payments } from "../../src/modules/payments/tables.ts";
import { onPostgres } from "../helpers/app.ts";
import { createAuction, placeBid, shopperSession } from "../helpers/auctions.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";

const fx = useTestApp();

const skip = onPostgres ? false : "needs PostgreSQL: PGlite has one connection, so nothing can race";

describe("racing bids", () => {
  test("50 concurrent bids leave one standing bid and one runner-up, every other hold released or refused", {
    skip,
  }, async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      amount: 10,
      min_increment: 1,
    });
    const shoppers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        shopperSession(fx.app, fx.tenants.app.id, auction.id, `racer${i}@example.com`),
      ),
    );
    // Rising amounts, each twice: two equal bids may never both be placed.
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        placeBid(fx.app, shoppers[i % 10].token, fx.tenants.app.id, auction.id, 10 + Math.floor(i / 2)),
      ),
    );
    for (const answer of answers) assert.ok([202, 409].includes(answer.status), answer.text);
    const accepted = answers.filter((a) => a.status === 202).length;
    // Most bids pass the quick check (nothing is placed yet) and race for the lock afterwards.
    assert.ok(accepted >= 2, `${accepted} bids were accepted`);
    const rows = await eventually(async () => {
      const all = await fx.app.deps.db
        .select({ bid: bids, payment: payments })
        .from(bids)
        .innerJoin(payments, eq(payments.id, bids.paymentId))
        .where(eq(bids.auctionId, auction.id));
      return all.length === accepted && all.every((r) => r.bid.status !== "pending") ? all : undefined;
    }, 90_000);
    const standing = rows.filter((r) => r.bid.status === "placed");
    assert.equal(standing.length, 1, "exactly one standing bid");
    assert.equal(standing[0].payment.status, "hold");
    const everPlaced = rows.filter((r) => ["placed", "outbid"].includes(r.bid.status));
    const amounts = everPlaced.map((r) => r.bid.amount.toString());
    assert.equal(new Set(amounts).size, amounts.length, `no two placed bids share an amount: ${amounts}`);
    for (const r of everPlaced) assert.ok(r.bid.amount <= standing[0].bid.amount);
    // The runner-up: the best outbid bid of another shopper keeps its hold (AUCTION_BACKUP_HOLDS=1).
    const others = rows.filter(
      (r) => r.bid.status === "outbid" && r.bid.shopperId !== standing[0].bid.shopperId,
    );
    const best = others.reduce<(typeof rows)[number] | undefined>(
      (top, r) => (!top || r.bid.amount > top.bid.amount ? r : top),
      undefined,
    );
    for (const r of rows) {
      if (r.bid.status === "placed") continue;
      assert.ok(["outbid", "refused"].includes(r.bid.status), r.bid.status);
      const expected = r === best ? ["hold"] : ["cancelled", "failed"];
      assert.ok(expected.includes(r.payment.status), `${r.bid.status} bid's payment is ${r.payment.status}`);
    }
  });
});
