import type { Answer } from "../helpers/http.ts";
import { bank, CARDS, card } from "../helpers/payments.ts";
import type { Action, CardName } from "./scenario.ts";
import { advance, settle, sweep } from "./time.ts";
import { triggerInput, type World } from "./world.ts";

/** How a step's answer reads in the log: the status, and the payment's state where it has one. */
type Outcome = string;

/** A problem's code, or the resource's status. */
const said = (answer: Answer) =>
  `${answer.status} ${answer.status >= 400 ? answer.body.code : (answer.body.status ?? "")}`.trim();

/** The sandbox's bank account that is collected and then returned, `account_closed` (docs/providers.md). */
const RETURNED_ACCOUNT = "000111111113";

function methodFor(world: World, payment: number, name: CardName) {
  if (world.payments[payment].method === "us_bank_account")
    return name === "returned" ? bank(RETURNED_ACCOUNT) : bank();
  return card(CARDS[name === "returned" ? "ok" : name]);
}

/**
 * Runs one step against the service, through its public API only, and answers what happened for
 * the log. Every answer is checked against what the API may say to that request (a 500 is never
 * one); whether a refusal was right is left to the invariants at the end of the run.
 */
export async function runAction(world: World, action: Action, step: number): Promise<Outcome> {
  const app = world.appId;
  switch (action.kind) {
    case "create": {
      const priceId = world.priceFor(action.marker, action.seller);
      const input = action.marker === "none" ? undefined : triggerInput(action.marker, `order-${step}`);
      const body = { payment_provider: action.method, ...(input && { trigger_data_input: input }) };
      let id: string;
      let token: string;
      if (action.via === "checkout") {
        const answer = await world.call("POST", `/checkout/${priceId}/payments`, [201], {
          token: undefined,
          body: { ...body, email: `${world.tag}-p${action.payment}@example.com` },
        });
        ({ id, payment_token: token } = answer.body);
      } else {
        const answer = await world.call("POST", `/payments/${app}`, [201], {
          body: { ...body, price_id: priceId },
        });
        ({ id, payment_token: token } = answer.body);
      }
      world.payments[action.payment] = {
        id,
        priceId,
        token,
        via: action.via,
        method: action.method,
        marker: action.marker,
        seller: action.seller,
      };
      return `201 ${id}`;
    }
    case "confirm": {
      const known = world.payments[action.payment];
      const payment_method = methodFor(world, action.payment, action.card);
      const answer =
        known.via === "checkout"
          ? await world.call("POST", `/checkout/${known.priceId}/payments/${known.id}/confirm`, [200, 409], {
              token: undefined,
              headers: { "x-payment-token": known.token },
              body: { payment_method },
            })
          : await world.call("POST", `/payments/${app}/${known.id}/confirm`, [200, 409], {
              body: { payment_method },
            });
      return said(answer);
    }
    case "challenge": {
      // The shopper follows the confirm's next action to the sandbox's 3-D Secure page, once the
      // authorisation job has asked for it.
      const deadline = Date.now() + 5000;
      let payment = await world.payment(action.payment);
      while (!payment.next_action && payment.status === "pending" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        payment = await world.payment(action.payment);
      }
      if (!payment.next_action) return `no step to answer (${payment.status})`;
      const intent = new URL(payment.next_action.url).pathname.split("/").pop();
      const answer = await world.call("POST", `/sandbox/3ds/${intent}`, [200, 409], {
        token: undefined,
        body: { outcome: action.pass ? "pass" : "fail" },
      });
      return said(answer);
    }
    case "await": {
      // Waits for a state (not a time): the step after it then meets the payment there.
      const reached = await waitFor(world, action.payment, action.state);
      return reached
        ? `${reached.status}${reached.transaction_id ? ` ${reached.transaction_id}` : ""}`
        : "not reached";
    }
    case "cancel": {
      const known = world.payments[action.payment];
      // A checkout payment is withdrawn by its shopper or cancelled by the app: either door.
      const answer =
        known.via === "checkout" && step % 2 === 0
          ? await world.call("POST", `/checkout/${known.priceId}/payments/${known.id}/cancel`, [200, 409], {
              token: undefined,
              headers: { "x-payment-token": known.token },
            })
          : await world.call("POST", `/payments/${app}/${known.id}/cancel`, [200, 409], { body: {} });
      return said(answer);
    }
    case "refund": {
      const known = world.payments[action.payment];
      const payment = await world.payment(action.payment);
      const minor = Math.round(payment.final_amount * 100);
      const part = Math.max(1, Math.floor((minor * action.percent) / 100));
      const body = action.percent === 0 ? {} : { amount: (part / 100).toFixed(2) };
      const answer = await world.call("POST", `/payments/${app}/${known.id}/refund`, [200, 409], { body });
      return `${said(answer)} ${JSON.stringify(body)}`;
    }
    case "retry": {
      const known = world.payments[action.payment];
      const answer = await world.call("POST", `/payments/${app}/${known.id}/retry`, [200, 409], { body: {} });
      return said(answer);
    }
    case "auction": {
      const endsAt = world.clock.now().getTime() + action.endsInMinutes * 60_000;
      const answer = await world.call("POST", `/auctions/${app}`, [201], {
        body: {
          name: `Lot ${action.auction}`,
          amount: 10,
          currency: "usd",
          ends_at: new Date(endsAt).toISOString(),
          min_increment: 1,
          trigger_id: world.triggerId,
        },
      });
      world.auctions[action.auction] = { id: answer.body.id, endsAt, sessions: [] };
      return `201 ${answer.body.id} ends ${new Date(endsAt).toISOString()}`;
    }
    case "bid":
      return bid(world, action, step);
    case "close": {
      // The auction's end comes: the clock is brought past it (if no other step did), and the run
      // waits for the close job to have closed it.
      const known = world.auctions[action.auction];
      const left = known.endsAt - world.clock.now().getTime();
      if (left > 0) await advance(world, left + 1000);
      const closed = await waitForAuction(world, action.auction, (a) => a.expired);
      return closed ? `closed, winner ${closed.winner_bid_id}` : "not closed yet";
    }
    case "await-winner": {
      // Until the auction's winner has its contract call signed: the window in which a cancel
      // would release a payment whose call the chain may still deliver.
      const found = await waitForAuction(world, action.auction, (a) => {
        const winner = a.bids.find((b: any) => b.id === a.winner_bid_id);
        return Boolean(winner?.payment.transaction_id) || (a.expired && !a.winner_bid_id);
      });
      const winner = found?.bids.find((b: any) => b.id === found.winner_bid_id);
      if (winner) return `winner ${winner.id} signed ${winner.payment.transaction_id}`;
      return found ? "no winner" : "not reached";
    }
    case "together": {
      // Both at once: whichever the service takes first, the other must meet a consistent state.
      const answers = await Promise.all(action.actions.map((a) => runAction(world, a, step)));
      return answers.join(" | ");
    }
    case "cancel-bid": {
      // The app cancels the payment of the bid that stands or won: the case where one lot could
      // be delivered twice if the cancel were taken while the winner's call is on its way.
      const auction = await world.auction(action.auction);
      const target =
        auction.bids.find((b: any) => b.id === auction.winner_bid_id) ??
        auction.bids.find((b: any) => b.status === "placed");
      if (!target) return "no standing bid";
      const answer = await world.call("POST", `/payments/${app}/${target.payment.id}/cancel`, [200, 409], {
        body: {},
      });
      return `${said(answer)} (bid ${target.id}, ${target.status})`;
    }
    case "advance":
      await advance(world, action.minutes * 60_000);
      return `clock at ${world.clock.now().toISOString()}`;
    case "settle":
      await settle(world);
      return "settled";
    case "sweep":
      await sweep(world);
      return "sweep queued";
    case "repoint": {
      const known = world.payments[action.payment];
      const now = await world.payment(action.payment);
      const kycId = world.otherSeller(now.kyc_id);
      const answer = await world.call("POST", `/payments/${app}/${known.id}/seller`, [200, 409], {
        body: { kyc_id: kycId },
      });
      return `${said(answer)} to ${kycId === world.sellerId ? "the first" : "the second"} seller`;
    }
    case "payouts":
      await world.pausePayouts(action.paused);
      return action.paused ? "the seller's payouts paused" : "the seller's payouts resumed";
    case "lost-answers":
      world.t.deps.paymentProviders.sandbox.lostAnswers.lose(action.operation, action.count);
      return `the answers to the provider's next ${action.count} ${action.operation} calls are lost on the way`;
    case "outage":
      world.receiver.statuses = [...Array(action.failures).fill(503), 200];
      return `the receiver answers 503 to its next ${action.failures} requests`;
    case "restart":
      world.t = await world.t.restart();
      return "restarted";
  }
}

const WAITS = {
  hold: (p: any) => p.status !== "pending",
  signed: (p: any) => Boolean(p.transaction_id) || !["pending", "hold"].includes(p.status),
  settled: (p: any) => !["pending", "hold"].includes(p.status),
};

/** Polls the payment until `state`, a state past it, or idle, for at most 15 s; undefined if never. */
async function waitFor(world: World, payment: number, state: keyof typeof WAITS) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const found = await world.payment(payment);
    // A pending payment no job is working on waits for the shopper, who is this run: done waiting.
    const idle = found.status === "pending" && (found.cancelable || found.next_action);
    if (WAITS[state](found) || idle) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

/** Polls the auction until `done` holds of it, for at most 20 s; undefined if never. */
async function waitForAuction(world: World, auction: number, done: (a: any) => boolean) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const found = await world.auction(auction);
    if (done(found)) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

async function bid(world: World, action: Extract<Action, { kind: "bid" }>, step: number): Promise<Outcome> {
  const known = world.auctions[action.auction];
  const auction = await world.auction(action.auction);
  const standing = auction.current_amount ?? auction.amount - 1;
  const amount = Math.max(auction.amount, standing + action.raise);
  const body = {
    amount,
    payment_method: card(CARDS[action.card === "returned" ? "ok" : action.card]),
    trigger_data_input: triggerInput(action.marker, `lot-${action.auction}-bid-${step}`, action.shopper),
  };
  const url = `/auctions/${world.appId}/${known.id}/bids`;
  // A session lasts 12 hours of the clock: a shopper whose session lapsed signs in again.
  let token = known.sessions[action.shopper] ?? (await world.shopperSession(action.auction, action.shopper));
  let answer = await world.call("POST", url, [202, 401, 409], { token, body });
  if (answer.status === 401) {
    token = await world.shopperSession(action.auction, action.shopper);
    answer = await world.call("POST", url, [202, 409], { token, body });
  }
  if (answer.status === 202) {
    world.bids.push({
      id: answer.body.payment.id,
      priceId: answer.body.payment.price.id,
      token: "",
      via: "bid",
      method: "card",
      marker: action.marker,
      seller: false,
      auction: action.auction,
    });
  }
  return `${answer.status} ${answer.body.id ?? answer.body.code} amount ${amount}`;
}
