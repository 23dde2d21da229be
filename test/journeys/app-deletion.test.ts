import assert from "node:assert/strict";
import { test } from "node:test";
import {
  createAuction,
  endAuctionNow,
  endsLater,
  placeBid,
  shopperSession,
  waitForBid,
} from "../helpers/auctions.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus } from "../helpers/http.ts";
import { bank, CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

// An owner tries to delete an app while money is still moving through it: a shopper's bank debit
// clearing, a bid backed by a card hold, a checkout nobody finished. The delete is refused and
// says what is open; once each has settled (or been cancelled) the app goes, and its records are
// no longer readable by anyone, while a sale already paid stays paid.

const fx = useTestApp();

const owner = () => fx.tenants.owner.token;

test("an app with money in flight cannot be deleted until it has settled; then it is gone", async () => {
  const appId = fx.tenants.app.id;
  const price = await createPrice(fx.app, owner(), appId, { name: "Poster", amount: 10, currency: "usd" });

  // A sale paid by card: settled money, which never blocks a delete.
  const sale = await createPayment(fx.app, owner(), appId, { price_id: price.id, payment_provider: "card" });
  expectStatus(await confirm(fx.app, owner(), appId, sale.id, card(CARDS.ok)), 200);
  await waitForStatus(fx.app, owner(), appId, sale.id, "paid");

  // A bid backed by a card hold, on an auction its owner ends below: an end 20 s ahead has been
  // outlasted by the steps before the delete on a loaded machine.
  const auction = await createAuction(fx.app, owner(), appId, { amount: 10, ends_at: endsLater() });
  const shopper = await shopperSession(fx.app, appId, auction.id, "bidder@example.com");
  const bid = expectStatus(await placeBid(fx.app, shopper.token, appId, auction.id, 10), 202);
  await waitForBid(fx.app, owner(), appId, auction.id, bid.id, "placed");

  // A checkout opened and left, and a bank debit still clearing.
  const abandoned = await createPayment(fx.app, owner(), appId, {
    price_id: price.id,
    payment_provider: "card",
  });
  const debit = await createPayment(fx.app, owner(), appId, {
    price_id: price.id,
    payment_provider: "us_bank_account",
  });
  expectStatus(await confirm(fx.app, owner(), appId, debit.id, bank()), 200);

  // A developer may not delete the app at all; the owner is told what is still open.
  assertProblem(
    await call(fx.app, "DELETE", `/apps/${appId}`, { token: fx.tenants.developer.token }),
    403,
    "forbidden",
  );
  const refused = assertProblem(
    await call(fx.app, "DELETE", `/apps/${appId}`, { token: owner() }),
    409,
    "conflict",
  );
  assert.deepEqual(refused.open, {
    pending: 1,
    processing: 1,
    hold: 0,
    bids_on_hold: 1,
    failed_captured: 0,
    failed_transfers: 0,
  });
  assert.match(refused.detail, /1 payment pending, 1 payment processing, 1 bid on hold/);
  // Nothing was deleted by the refusal.
  expectStatus(await call(fx.app, "GET", `/apps/${appId}`, { token: owner() }), 200);
  expectStatus(await call(fx.app, "GET", `/payments/${appId}/${sale.id}`, { token: owner() }), 200);

  // The owner cancels the abandoned checkout; the debit clears; the auction ends and its winner pays.
  const cancelled = expectStatus(
    await call(fx.app, "POST", `/payments/${appId}/${abandoned.id}/cancel`, { token: owner(), body: {} }),
    200,
  );
  assert.equal(cancelled.status, "cancelled");
  await waitForStatus(fx.app, owner(), appId, debit.id, "paid");
  await endAuctionNow(fx.app, owner(), appId, auction.id);
  await waitForBid(fx.app, owner(), appId, auction.id, bid.id, "won");
  await eventually(async () => {
    const view = expectStatus(
      await call(fx.app, "GET", `/auctions/${appId}/${auction.id}`, { token: owner() }),
      200,
    );
    const won = view.bids.find((b: { id: string }) => b.id === bid.id);
    return won.payment.status === "paid" ? won : undefined;
  }, 30_000);

  expectStatus(await call(fx.app, "DELETE", `/apps/${appId}`, { token: owner() }), 204);

  // Every read of the deleted app is 404, for everyone who could read it before.
  for (const token of [owner(), fx.tenants.developer.token]) {
    assertProblem(await call(fx.app, "GET", `/apps/${appId}`, { token }), 404, "not_found");
    assertProblem(await call(fx.app, "GET", `/payments/${appId}`, { token }), 404, "not_found");
    assertProblem(await call(fx.app, "GET", `/payments/${appId}/${sale.id}`, { token }), 404, "not_found");
    assertProblem(await call(fx.app, "GET", `/auctions/${appId}/${auction.id}`, { token }), 404, "not_found");
  }
  const apps = expectStatus(await call(fx.app, "GET", "/apps", { token: owner() }), 200);
  assert.ok(!apps.some((a: { id: string }) => a.id === appId));
  // Its hosted checkout takes no new payment.
  assert.equal((await call(fx.app, "GET", `/checkout/${price.id}`)).status, 404);
  // A second delete finds nothing.
  assertProblem(await call(fx.app, "DELETE", `/apps/${appId}`, { token: owner() }), 404, "not_found");
});

test("an app with nothing in flight is deleted at once; another tenant cannot delete it", async () => {
  const app = await createApp(fx.app, owner(), { name: "Quiet shop" });
  assertProblem(
    await call(fx.app, "DELETE", `/apps/${app.id}`, { token: fx.tenants.outsider.token }),
    404,
    "not_found",
  );
  expectStatus(await call(fx.app, "DELETE", `/apps/${app.id}`, { token: owner() }), 204);
  assertProblem(await call(fx.app, "GET", `/apps/${app.id}`, { token: owner() }), 404, "not_found");
});
