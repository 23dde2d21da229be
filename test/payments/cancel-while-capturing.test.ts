// A hold whose capture is asked for cannot be cancelled (docs/payments.md, "Cancel"): the capture is
// a provider call the cancel cannot stop, so a cancel answered then would leave the card charged
// for a cancelled payment, its release refused by the provider. Played where such a hold lasts long
// enough for an app to try: an auction without a contract call whose winner's capture meets a
// provider outage. Only the outage switch is reached past HTTP (the sandbox's own control).
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
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { CARDS, waitForStatus } from "../helpers/payments.ts";

const fx = useTestApp();

const paymentOf = async (id: string) =>
  expectStatus(
    await call(fx.app, "GET", `/payments/${fx.tenants.app.id}/${id}`, { token: fx.tenants.owner.token }),
    200,
  );

test("the winner's hold, its capture asked for, is not cancelable: 409, then paid once the provider is back", async () => {
  const { app, owner } = fx.tenants;
  const auction = await createAuction(fx.app, owner.token, app.id, { ends_at: endsLater() });
  const ann = await shopperSession(fx.app, app.id, auction.id, "ann@example.com");
  const bob = await shopperSession(fx.app, app.id, auction.id, "bob@example.com");
  const low = expectStatus(await placeBid(fx.app, ann.token, app.id, auction.id, 10, CARDS.ok), 202);
  await waitForBid(fx.app, owner.token, app.id, auction.id, low.id, "placed");
  const high = expectStatus(await placeBid(fx.app, bob.token, app.id, auction.id, 11, CARDS.ok), 202);
  await waitForBid(fx.app, owner.token, app.id, auction.id, high.id, "placed");
  const bidding = await paymentOf(high.payment.id);
  assert.equal(bidding.status, "hold");
  assert.equal(bidding.cancelable, true, "a bid's hold waits for its owner: cancelable");

  const sandbox = fx.app.deps.paymentProviders.sandbox;
  await sandbox.setOutage(true);
  try {
    await endAuctionNow(fx.app, owner.token, app.id, auction.id);
    // The capture is asked for and fails for now: the payment stays `hold` while it is retried.
    const capturing = await eventually(async () => {
      const payment = await paymentOf(high.payment.id);
      return payment.cancelable === false ? payment : undefined;
    });
    assert.equal(capturing.status, "hold");
    const refused = assertProblem(
      await call(fx.app, "POST", `/payments/${app.id}/${high.payment.id}/cancel`, {
        token: owner.token,
        body: {},
      }),
      409,
      "invalid_state_transition",
    );
    assert.match(refused.detail, /being captured/);
    assert.equal((await paymentOf(high.payment.id)).status, "hold", "the refused cancel changed nothing");
  } finally {
    await sandbox.setOutage(false);
  }
  await waitForStatus(fx.app, owner.token, app.id, high.payment.id, "paid", 60_000);
  await waitForStatus(fx.app, owner.token, app.id, low.payment.id, "cancelled");
});
