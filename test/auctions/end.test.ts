// POST /auctions/{app_id}/{auction_id}/end: an owner ends an auction before its time. The standing
// bid wins as it would at the end time, bids stop at once, and ending twice is refused
// (docs/auctions.md, "Ending early").
import assert from "node:assert/strict";
import { test } from "node:test";
import { createAuction, placeBid, shopperSession, waitForBid } from "../helpers/auctions.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { waitForStatus } from "../helpers/payments.ts";

const fx = useTestApp();

const end = (appId: string, auctionId: string, token: string) =>
  call(fx.app, "POST", `/auctions/${appId}/${auctionId}/end`, { token });

test("ending early makes the standing bid win and charges it; bids stop and a second end is 409", async () => {
  const { app, owner } = fx.tenants;
  const auction = await createAuction(fx.app, owner.token, app.id);
  const shopper = await shopperSession(fx.app, app.id, auction.id, "early@example.com");
  const bid = expectStatus(await placeBid(fx.app, shopper.token, app.id, auction.id, 25), 202);
  await waitForBid(fx.app, owner.token, app.id, auction.id, bid.id, "placed");

  const ended = expectStatus(await end(app.id, auction.id, owner.token), 200);
  assert.equal(ended.id, auction.id);
  assert.equal(ended.expired, true, "the answer already shows it ended");
  assert.equal(ended.winner_bid_id, bid.id);
  assert.equal(ended.bids.find((b: { id: string }) => b.id === bid.id).status, "won");
  assert.ok(Date.parse(ended.ends_at) <= Date.now(), "its end time is now, not the planned one");
  await waitForStatus(fx.app, owner.token, app.id, bid.payment.id, "paid");

  const late = await placeBid(fx.app, shopper.token, app.id, auction.id, 40);
  assertProblem(late, 409, "conflict");
  const again = assertProblem(await end(app.id, auction.id, owner.token), 409, "conflict");
  assert.match(again.detail, /already ended/);
});

test("an auction with no bid ends with no winner; developers may end one; others' auctions are 404", async () => {
  const { app, developer, outsider } = fx.tenants;
  const auction = await createAuction(fx.app, developer.token, app.id);
  assertProblem(await end(app.id, auction.id, outsider.token), 404, "not_found");
  assertProblem(await end(app.id, "auc_nope", developer.token), 404, "not_found");
  const ended = expectStatus(await end(app.id, auction.id, developer.token), 200);
  assert.equal(ended.expired, true);
  assert.equal(ended.winner_bid_id, null);
  const read = expectStatus(
    await call(fx.app, "GET", `/auctions/${app.id}/${auction.id}`, { token: developer.token }),
    200,
  );
  assert.equal(read.expired, true);
  // Its prices expired with it: the checkout no longer takes them.
  const price = expectStatus(
    await call(fx.app, "GET", `/prices/${app.id}/${read.on_end_payment_intent.id}`, {
      token: developer.token,
    }),
    200,
  );
  assert.equal(price.expired, true);
});
