import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { TestApp } from "../helpers/app.ts";
import { endAuctionNow, mailedCode } from "../helpers/auctions.ts";
import { buildServedApp } from "../helpers/browser.ts";
import { eventually } from "../helpers/contract.ts";
import { assertProblem, call, expectStatus, signup } from "../helpers/http.ts";
import { CARDS, card, waitForStatus } from "../helpers/payments.ts";
import { evmTrigger } from "../helpers/triggers.ts";
import { newMasterKey } from "../helpers/wallets.ts";
import { Receiver } from "../helpers/webhooks.ts";

// Journeys through public interfaces only: HTTP calls, the app's webhook endpoint, the auction's
// public event stream, the shopper's mailbox (the sandbox mailer is the inbox), and the sandbox
// chain's documented `sandbox:revert` marker (docs/chains.md) to make a winner's call fail.

let t: TestApp;
let base: string;
let owner: Awaited<ReturnType<typeof signup>>;
let appId: string;
let triggerId: string;
const receiver = new Receiver();

const ADDRESSES = {
  ann: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  ben: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  cara: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
  dan: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
  eli: "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc",
};
type Name = keyof typeof ADDRESSES;
const inputOf = (name: Name, order: string) => ({
  params_data_input: { receiver: ADDRESSES[name], quantity: 1, order_id: order },
});

before(async () => {
  ({ t, base } = await buildServedApp({
    SECRETS_MASTER_KEY: newMasterKey(),
    WEBHOOKS_ALLOW_LOOPBACK: "true",
    EVM_TESTNET_CONFIRMATIONS: "2",
    EVM_TESTNET_BLOCK_SECONDS: "1",
  }));
  owner = await signup(t);
  appId = expectStatus(
    await call(t, "POST", "/apps", {
      token: owner.token,
      body: { name: "Auction house", app_fee: 0, use_explorer: false },
    }),
    201,
  ).id;
  const url = await receiver.start();
  expectStatus(
    await call(t, "POST", `/webhooks/${appId}`, {
      token: owner.token,
      body: { url, events: ["auction.*", "payment.*"] },
    }),
    201,
  );
  const wallet = expectStatus(
    await call(t, "POST", `/wallets/${appId}`, { token: owner.token, body: { name: "Minter", type: "evm" } }),
    201,
  );
  // Mints to `receiver`; `quantity` and `order_id` (in the memo) are the bidder's to give.
  triggerId = expectStatus(
    await call(t, "POST", `/triggers/${appId}`, { token: owner.token, body: evmTrigger(wallet.id) }),
    201,
  ).id;
});
after(async () => {
  await t.close();
  await receiver.stop();
});

async function createAuction(seconds: number) {
  return expectStatus(
    await call(t, "POST", `/auctions/${appId}`, {
      token: owner.token,
      body: {
        name: "Signed print",
        amount: 10,
        currency: "usd",
        min_increment: 1,
        trigger_id: triggerId,
        ends_at: new Date(Date.now() + seconds * 1000).toISOString(),
      },
    }),
    201,
  );
}

/** A shopper signs in: asks for a code, reads it in their mailbox, trades it for a token. */
async function signIn(auctionId: string, name: Name) {
  const email = `${name}.${auctionId.slice(-6)}@example.com`;
  const before = t.mailer.to(email).length;
  const path = `/auctions/${appId}/${auctionId}/shoppers`;
  expectStatus(await call(t, "POST", `${path}/code`, { body: { email } }), 204);
  const code = await mailedCode(t, email, before);
  return expectStatus(await call(t, "POST", `${path}/session`, { body: { email, code } }), 201)
    .token as string;
}

const bid = (auctionId: string, token: string, amount: number, extra: Record<string, unknown>) =>
  call(t, "POST", `/auctions/${appId}/${auctionId}/bids`, {
    token,
    body: { amount, payment_method: card(CARDS.ok), ...extra },
  });

async function auctionView(auctionId: string) {
  return expectStatus(await call(t, "GET", `/auctions/${appId}/${auctionId}`, { token: owner.token }), 200);
}

async function waitForAuction(auctionId: string, ready: (view: any) => boolean, timeoutMs = 60_000) {
  let last: any;
  try {
    return await eventually(async () => {
      last = await auctionView(auctionId);
      return ready(last) ? last : undefined;
    }, timeoutMs);
  } catch {
    throw new Error(
      `the auction never got there: ${JSON.stringify(last?.bids?.map((b: any) => [b.id, b.status, b.reason]))}`,
    );
  }
}

const statusOf = (view: any, bidId: string) => view.bids.find((b: { id: string }) => b.id === bidId)?.status;

/** The auction's public event stream, read as a browser's EventSource would; answers the states seen. */
function follow(auctionId: string) {
  const states: any[] = [];
  const abort = new AbortController();
  const reading = (async () => {
    const response = await fetch(`${base}/a/${auctionId}/events`, { signal: abort.signal });
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(message)?.[1];
        if (/^event: state$/m.test(message) && data) states.push(JSON.parse(data));
        end = buffer.indexOf("\n\n");
      }
    }
  })().catch((error) => {
    if (!abort.signal.aborted) throw error;
  });
  return {
    states,
    async stop() {
      abort.abort();
      await reading;
    },
  };
}

/** The app's endpoint received these events (Standard Webhooks deliveries), as parsed bodies. */
const delivered = () => receiver.received.map((r) => JSON.parse(r.body));
const eventsOf = (type: string, auctionId: string) =>
  delivered().filter((e) => e.type === type && e.data.auction_id === auctionId);

describe("auction journeys", () => {
  test("bids carry the trigger's parameters; the outbid shopper loses; the winner's call runs with the winning input and is paid", async () => {
    // Ends on its own, 30 s ahead: the close job at the end time is what this journey checks. Its
    // sign-ins and bids took under 10 s in a loaded CI run (the whole case 26 s with a 20 s end).
    const auction = await createAuction(30);
    const stream = follow(auction.id);
    const ann = await signIn(auction.id, "ann");
    const ben = await signIn(auction.id, "ben");

    // Without the trigger's parameters, or with a wrong one: 400 naming the field, nothing recorded.
    let problem = assertProblem(await bid(auction.id, ann, 10, {}), 400, "validation_failed");
    assert.ok(
      problem.errors.some((e: any) => e.path === "/body/trigger_data_input/params_data_input/receiver"),
      JSON.stringify(problem.errors),
    );
    problem = assertProblem(
      await bid(auction.id, ann, 10, {
        trigger_data_input: { params_data_input: { receiver: "not-an-address", quantity: 1 } },
      }),
      400,
      "validation_failed",
    );
    assert.deepEqual(
      problem.errors.map((e: any) => e.path),
      ["/body/trigger_data_input/params_data_input/receiver"],
    );
    problem = assertProblem(
      await bid(auction.id, ann, 10, { trigger_data_input: { params: {} } }),
      400,
      "validation_failed",
    );
    assert.ok(problem.errors.some((e: any) => e.path.startsWith("/body/trigger_data_input")));
    const none = expectStatus(
      await call(t, "GET", `/auctions/${appId}/${auction.id}/bids`, { token: owner.token }),
      200,
    );
    assert.deepEqual(none, []);

    // Ann's input carries the sandbox chain's revert marker: had her input been used by the
    // winning call, that call would fail. Ben's is an ordinary order.
    const first = expectStatus(
      await bid(auction.id, ann, 10, { trigger_data_input: inputOf("ann", "sandbox:revert") }),
      202,
    );
    assert.equal(first.status, "pending");
    assert.equal(first.shopper.phone_or_email, `ann.${auction.id.slice(-6)}@example.com`);
    assert.deepEqual(first.payment.trigger_data_input, inputOf("ann", "sandbox:revert"));
    assert.equal(first.payment.price.id, auction.on_bid_payment_intent.id);
    await waitForAuction(auction.id, (v) => statusOf(v, first.id) === "placed");

    const second = expectStatus(
      await bid(auction.id, ben, 12, { trigger_data_input: inputOf("ben", "ben-1") }),
      202,
    );
    await waitForAuction(auction.id, (v) => statusOf(v, second.id) === "placed");
    const outbid = await eventually(() => {
      const found = eventsOf("auction.outbid", auction.id);
      return found.length > 0 ? found : undefined;
    });
    assert.equal(outbid.length, 1);
    assert.equal(outbid[0].data.bid_id, first.id);
    assert.equal(outbid[0].data.hold_kept, true, "Ann's hold stays as the runner-up until Ben pays");

    // The auction ends on its own; Ben's payment runs the contract call with his input and is paid.
    const ended = await waitForAuction(auction.id, (v) => v.expired && statusOf(v, second.id) === "won");
    assert.equal(ended.winner_bid_id, second.id);
    const paid = await waitForStatus(t, owner.token, appId, second.payment.id, "paid");
    assert.deepEqual(paid.trigger_data_input, inputOf("ben", "ben-1"));
    assert.match(paid.transaction_id, /^0x[0-9a-f]{64}$/);
    assert.equal(paid.confirmation_status.confirmed, true);
    // Once the winner paid, the runner-up's hold is released.
    await waitForStatus(t, owner.token, appId, first.payment.id, "cancelled");

    const read = expectStatus(
      await call(t, "GET", `/auctions/${appId}/${auction.id}/bids/${second.id}`, { token: owner.token }),
      200,
    );
    assert.equal(read.status, "won");
    assert.equal(read.payment.status, "paid");
    assert.equal(read.shopper.auth_method, "email");

    await eventually(() => eventsOf("auction.ended", auction.id).length === 1);
    assert.equal(eventsOf("auction.ended", auction.id)[0].data.winner_bid_id, second.id);
    await eventually(() =>
      delivered().some((e) => e.type === "payment.paid" && e.data.id === second.payment.id),
    );
    assert.equal(eventsOf("auction.winner_changed", auction.id).length, 0);
    await eventually(() => stream.states.some((s) => s.expired && s.winner_bid_id === second.id));
    await stream.stop();
  });

  test("the winner's payment fails: the best runner-up with a live hold wins and is paid", async () => {
    // An hour ahead, ended by its owner once the three bids stand (the journey above ends on its
    // own): a fixed 25 s end has been outlasted by the bids on a loaded machine.
    const auction = await createAuction(3600);
    const stream = follow(auction.id);
    const cara = await signIn(auction.id, "cara");
    const eli = await signIn(auction.id, "eli");
    const dan = await signIn(auction.id, "dan");

    const low = expectStatus(
      await bid(auction.id, cara, 10, { trigger_data_input: inputOf("cara", "c-1") }),
      202,
    );
    await waitForAuction(auction.id, (v) => statusOf(v, low.id) === "placed");
    const middle = expectStatus(
      await bid(auction.id, eli, 12, { trigger_data_input: inputOf("eli", "e-1") }),
      202,
    );
    await waitForAuction(auction.id, (v) => statusOf(v, middle.id) === "placed");
    // Dan's order makes his contract call revert on the sandbox chain: his payment will fail.
    const high = expectStatus(
      await bid(auction.id, dan, 15, { trigger_data_input: inputOf("dan", "sandbox:revert") }),
      202,
    );
    await waitForAuction(auction.id, (v) => statusOf(v, high.id) === "placed");
    // Eli's bid is now the runner-up and keeps its hold; Cara's, below it, is released at once.
    await waitForStatus(t, owner.token, appId, low.payment.id, "cancelled");
    const kept = await eventually(() =>
      eventsOf("auction.outbid", auction.id).find((e) => e.data.bid_id === middle.id),
    );
    assert.equal(kept.data.hold_kept, true);

    // The owner ends it: Dan wins, his call reverts, his hold is released, and Eli wins instead.
    await endAuctionNow(t, owner.token, appId, auction.id);
    const handedOver = await waitForAuction(
      auction.id,
      // The view reads the auction and its bids in two statements: wait until both show the hand-over.
      (v) =>
        statusOf(v, high.id) === "failed" &&
        statusOf(v, middle.id) === "won" &&
        v.winner_bid_id === middle.id,
      90_000,
    );
    assert.equal(handedOver.winner_bid_id, middle.id);
    assert.equal(handedOver.current_amount, 12);
    const failedBid = handedOver.bids.find((b: any) => b.id === high.id);
    assert.match(failedBid.reason, /contract call failed/);
    const released = await waitForStatus(t, owner.token, appId, high.payment.id, "cancelled");
    assert.equal(released.transaction_response.error.reason, "sandbox:revert requested by the call");

    const paid = await waitForStatus(t, owner.token, appId, middle.payment.id, "paid");
    assert.deepEqual(paid.trigger_data_input, inputOf("eli", "e-1"), "the call ran with Eli's own input");
    assert.equal(paid.confirmation_status.confirmed, true);
    assert.equal(statusOf(await auctionView(auction.id), low.id), "outbid");

    await eventually(() => eventsOf("auction.winner_changed", auction.id).length === 1);
    const changed = eventsOf("auction.winner_changed", auction.id)[0].data;
    assert.equal(changed.previous_bid_id, high.id);
    assert.equal(changed.winner_bid_id, middle.id);
    assert.equal(changed.payment_id, middle.payment.id);
    assert.equal(changed.amount, 12);
    assert.equal(eventsOf("auction.ended", auction.id)[0].data.winner_bid_id, high.id);
    await eventually(() =>
      delivered().some((e) => e.type === "payment.cancelled" && e.data.id === high.payment.id),
    );
    await eventually(() =>
      stream.states.some(
        (s) =>
          s.winner_bid_id === middle.id &&
          s.bids.some((b: any) => b.id === high.id && b.status === "failed") &&
          s.bids.some((b: any) => b.id === middle.id && b.status === "won"),
      ),
    );
    await stream.stop();
  });
});
