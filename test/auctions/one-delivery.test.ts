// One lot, one delivery (docs/auctions.md, "Runners-up"): once the winner's mint is signed, the
// app cannot cancel the winner's payment, so the runner-up never gets to pay for the same lot.
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import {
  createAuction,
  endAuctionNow,
  endsLater,
  listenToAuctionEvents,
  placeBid,
  shopperSession,
  waitForBid,
} from "../helpers/auctions.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
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

const fx = useTestApp(
  {
    WEBHOOKS_ALLOW_LOOPBACK: "true",
    SECRETS_MASTER_KEY: newMasterKey(),
    EVM_TESTNET_CONFIRMATIONS: "2",
    EVM_TESTNET_BLOCK_SECONDS: "0.5",
  },
  {
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

describe("one delivery per lot", () => {
  test("cancel the winner's payment while its mint is on chain: 409, and the runner-up does not get to pay", async () => {
    const auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
      trigger_id: triggerId,
      ends_at: endsLater(),
    });
    const ann = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "ann@example.com");
    const bob = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "bob@example.com");
    const low = expectStatus(
      await placeBid(fx.app, ann.token, fx.tenants.app.id, auction.id, 10, CARDS.ok, input("runner-up")),
      202,
    );
    await waitForBid(fx.app, fx.tenants.owner.token, fx.tenants.app.id, auction.id, low.id, "placed");
    // The winner's mint is slow to confirm: the window in which an app might cancel it.
    const high = expectStatus(
      await placeBid(fx.app, bob.token, fx.tenants.app.id, auction.id, 11, CARDS.ok, input("sandbox:slow")),
      202,
    );
    await waitForBid(fx.app, fx.tenants.owner.token, fx.tenants.app.id, auction.id, high.id, "placed");
    await endAuctionNow(fx.app, fx.tenants.owner.token, fx.tenants.app.id, auction.id);

    const minting = await eventually(async () => {
      const p = expectStatus(
        await call(fx.app, "GET", `/payments/${fx.tenants.app.id}/${high.payment.id}`, {
          token: fx.tenants.owner.token,
        }),
        200,
      );
      return p.status === "hold" && p.transaction_id ? p : undefined;
    }, 20_000);
    assert.equal(minting.cancelable, false);
    const refused = assertProblem(
      await call(fx.app, "POST", `/payments/${fx.tenants.app.id}/${high.payment.id}/cancel`, {
        token: fx.tenants.owner.token,
        body: {},
      }),
      409,
      "invalid_state_transition",
    );
    assert.match(refused.detail, /chain's outcome decides/);

    // The mint confirms: the winner pays, and the runner-up's hold is released unpaid.
    const paid = await waitForStatus(
      fx.app,
      fx.tenants.owner.token,
      fx.tenants.app.id,
      high.payment.id,
      "paid",
    );
    assert.equal(paid.transaction_id, minting.transaction_id);
    const view = await waitForBid(
      fx.app,
      fx.tenants.owner.token,
      fx.tenants.app.id,
      auction.id,
      high.id,
      "won",
    );
    assert.equal(view.winner_bid_id, high.id);
    const runnerUp = await waitForStatus(
      fx.app,
      fx.tenants.owner.token,
      fx.tenants.app.id,
      low.payment.id,
      "cancelled",
    );
    assert.equal(runnerUp.transaction_id, null, "no second mint for the lot");
    assert.notEqual(view.bids.find((b: { id: string }) => b.id === low.id).status, "won");
    const changes = receiver.received
      .map((r) => JSON.parse(r.body))
      .filter((e) => e.type === "auction.winner_changed" && e.data.auction_id === auction.id);
    assert.deepEqual(changes, [], "the sale never passed to the runner-up");
  });
});
