import { Random } from "./prng.ts";

/**
 * What a sandbox contract call does (docs/chains.md, "Sandbox adapter"): the trigger parameter
 * carries `sandbox:<marker>` for all but `success`; `none` is a price without a trigger.
 */
export const MARKERS = ["none", "success", "revert", "drop", "slow", "unfunded"] as const;
export type Marker = (typeof MARKERS)[number];

/**
 * The sandbox's test cards (test/helpers/payments.ts CARDS); for a bank debit, `returned` is the
 * account its bank returns after collection and any other name the good account.
 */
export type CardName = "ok" | "declined" | "insufficient" | "threeDS" | "returned";

/** A state a step can wait for (never a time): `signed` is a contract call signed for the payment. */
export type Awaited = "hold" | "signed" | "settled";

/**
 * One step of a scenario. Payments, auctions and shoppers are named by their number in the run,
 * never by an id: the generator decides everything before the service runs, so the list is a
 * function of the seed alone. A step that does not apply to the state the service is in when it
 * runs (cancel a paid payment) is still made: the service must refuse it.
 */
export type Action =
  | {
      kind: "create";
      payment: number;
      via: "api" | "checkout";
      method: "card" | "us_bank_account";
      marker: Marker;
      /** A price of the app's seller: the seller's share is transferred, and reversed on refunds. */
      seller: boolean;
    }
  | { kind: "confirm"; payment: number; card: CardName }
  | { kind: "challenge"; payment: number; pass: boolean }
  | { kind: "await"; payment: number; state: Awaited }
  | { kind: "cancel"; payment: number }
  | { kind: "refund"; payment: number; percent: number }
  | { kind: "retry"; payment: number }
  /** The app points a seller payment's payout at its other seller (`POST …/seller`). */
  | { kind: "repoint"; payment: number }
  | { kind: "auction"; auction: number; endsInMinutes: number }
  | { kind: "bid"; auction: number; shopper: number; raise: number; card: CardName; marker: Marker }
  | { kind: "close"; auction: number }
  | { kind: "await-winner"; auction: number }
  | { kind: "cancel-bid"; auction: number }
  | { kind: "together"; actions: Action[] }
  | { kind: "advance"; minutes: number }
  | { kind: "outage"; failures: number }
  /** The seller's payouts paused (or resumed) at the provider: transfers to them are refused meanwhile. */
  | { kind: "payouts"; paused: boolean }
  /** The provider makes its next calls of one kind and their answers never arrive (a connection reset). */
  | { kind: "lost-answers"; operation: LostOperation; count: number }
  | { kind: "settle" }
  | { kind: "sweep" }
  | { kind: "restart" };

/** The provider calls whose answers the world may lose (the sandbox's operations). */
export type LostOperation = (typeof LOST_OPERATIONS)[number];
const LOST_OPERATIONS = [
  "create_and_confirm_intent",
  "capture_intent",
  "cancel_intent",
  "refund",
  "transfer",
  "reverse_transfer",
] as const;

export interface ScenarioOptions {
  /** About how many steps before the final phase. */
  length: number;
  /** Whether a process restart may be drawn (at most one per run). */
  restarts: boolean;
}

/** Shoppers per auction: enough for a winner, a runner-up and one more. */
export const SHOPPERS = 3;
/** A long auction ends after this many minutes (past the holds' live window: its holds are watched). */
export const LONG_AUCTION_MINUTES = 180;

const CARD_WEIGHTS = { ok: 6, declined: 1, insufficient: 1, threeDS: 2, returned: 0 } as const;
/** A bank debit: mostly the good account, sometimes the one returned after collection. */
const BANK_WEIGHTS = { ok: 4, declined: 0, insufficient: 0, threeDS: 0, returned: 1 } as const;
const MARKER_WEIGHTS = { none: 3, success: 3, revert: 2, drop: 1, slow: 3, unfunded: 1 } as const;

/**
 * A payment's life as a shopper and an app would lead it: opened, paid (with a test card that
 * may decline or ask for 3-D Secure), then some of: wait for a state, cancel, refund, retry, pay
 * again. Which steps come, in which order and when, is random; whether each applies is the
 * service's to say.
 */
function paymentLife(random: Random, payment: number): Action[] {
  const method = random.chance(0.15) ? "us_bank_account" : "card";
  const life: Action[] = [
    {
      kind: "create",
      payment,
      via: random.chance(0.3) ? "checkout" : "api",
      method,
      marker: random.weighted(MARKER_WEIGHTS),
      seller: random.chance(0.4),
    },
  ];
  if (random.chance(0.1)) return life; // abandoned: the pending TTL ends it
  const weights = method === "card" ? CARD_WEIGHTS : BANK_WEIGHTS;
  const card = random.weighted(weights);
  life.push({ kind: "confirm", payment, card });
  if (card === "threeDS" && method === "card" && random.chance(0.85))
    life.push({ kind: "challenge", payment, pass: random.chance(0.75) });
  const more = random.weighted({ 0: 2, 1: 3, 2: 3, 3: 1 } as Record<string, number>);
  for (let i = 0; i < Number(more); i++) {
    // Often at a chosen state: a cancel once the call is signed is the case that matters most.
    if (random.chance(0.6))
      life.push({ kind: "await", payment, state: random.weighted({ hold: 1, signed: 2, settled: 1 }) });
    const seller = (life[0] as Extract<Action, { kind: "create" }>).seller;
    const op = paymentOp(random, payment, weights, seller);
    // Sometimes with another at the same instant on the same payment: two refunds, a cancel and
    // a confirm, a retry and a cancel, as two tabs or a retried request would.
    const pair = random.chance(0.2);
    life.push(pair ? { kind: "together", actions: [op, paymentOp(random, payment, weights, seller)] } : op);
  }
  return life;
}

function paymentOp(
  random: Random,
  payment: number,
  weights: Record<CardName, number>,
  seller: boolean,
): Action {
  const kind = random.weighted({ cancel: 3, refund: 3, retry: 1, confirm: 1, repoint: seller ? 1 : 0 });
  if (kind === "refund") return { kind, payment, percent: random.pick([0, 0, 25, 40, 60]) };
  if (kind === "confirm") return { kind, payment, card: random.weighted(weights) };
  return { kind, payment };
}

/**
 * An auction's life: opened (ending within the hour, or after the holds' live window), bid on by
 * its shoppers (some bids too low, some cards declined, some winning calls that fail on chain),
 * perhaps the app cancelling the standing bid's payment, then its end (the clock brought to it),
 * and perhaps the app cancelling the winner's payment, at once or once its call is signed.
 */
function auctionLife(random: Random, auction: number): Action[] {
  const long = random.chance(0.25);
  const life: Action[] = [
    { kind: "auction", auction, endsInMinutes: long ? LONG_AUCTION_MINUTES : random.between(20, 60) },
  ];
  const bids = random.between(2, 5);
  const bid = (): Action => ({
    kind: "bid",
    auction,
    shopper: random.int(SHOPPERS),
    // Over the standing bid, or (sometimes) not enough: the service must refuse that one.
    raise: random.chance(0.15) ? 0 : random.between(1, 5),
    card: random.weighted({ ...CARD_WEIGHTS, threeDS: 0 }),
    marker: random.weighted({ ...MARKER_WEIGHTS, none: 0 }),
  });
  for (let i = 0; i < bids; i++) {
    // Two shoppers (or one, twice) bidding at the same instant.
    life.push(random.chance(0.2) ? { kind: "together", actions: [bid(), bid()] } : bid());
  }
  if (random.chance(0.2)) life.splice(random.between(2, life.length), 0, { kind: "cancel-bid", auction });
  life.push({ kind: "close", auction });
  const after = random.weighted({ nothing: 2, cancel: 1, signed: 2 });
  if (after === "signed") life.push({ kind: "await-winner", auction }, { kind: "cancel-bid", auction });
  if (after === "cancel") life.push({ kind: "cancel-bid", auction });
  return life;
}

/**
 * What happens around the service: time passes, jobs run, the sweep runs, the webhook receiver
 * fails for a while, the provider pauses the seller's payouts (or resumes them), the answers to
 * the provider's next calls of one kind (a confirm, a capture, a release, a refund, a transfer, a
 * reversal) are lost on the way, the process restarts.
 */
function worldEvent(random: Random, restart: boolean): Action {
  const kind = random.weighted({
    advance: 2,
    settle: 5,
    sweep: 1,
    outage: 1,
    payouts: 1,
    "lost-answers": 1,
    restart: restart ? 1.5 : 0,
  });
  // The webhook receiver answers 503 to its next few requests: those deliveries are retried.
  if (kind === "outage") return { kind, failures: random.between(1, 4) };
  if (kind === "payouts") return { kind, paused: random.chance(0.6) };
  if (kind === "lost-answers") {
    const operation = random.pick(LOST_OPERATIONS);
    return { kind, operation, count: random.between(1, 2) };
  }
  if (kind !== "advance") return { kind };
  // A few minutes; past a hold's live window (AUCTION_HOLD_HOURS, simulate.ts); or past every
  // bound (PENDING_PAYMENT_TTL_HOURS, the long auctions' end).
  // The big jumps are rare: each ends every auction open and every hold placed before it.
  const size = random.weighted({ minutes: 5, holds: 1.5, everything: 0.5 });
  const minutes =
    size === "minutes"
      ? random.between(1, 5)
      : size === "holds"
        ? random.between(95, 130)
        : random.between(1450, 1500);
  return { kind, minutes };
}

/**
 * The steps of one run, from its seed alone: payment and auction lives, and service-wide
 * events, merged in a random order that keeps each life's own order; now and then two steps run
 * at once (`together`), which is where races live.
 */
export function generateScenario(seed: number, options: ScenarioOptions): Action[] {
  const random = new Random(seed);
  const lives: Action[][] = [];
  let size = 0;
  let payments = 0;
  let auctions = 0;
  const events = Math.round(options.length * 0.2);
  while (size < options.length - events) {
    const life =
      auctions < 2 && random.chance(0.22) ? auctionLife(random, auctions++) : paymentLife(random, payments++);
    lives.push(life);
    size += life.length;
  }
  let restart = options.restarts;
  for (let i = 0; i < events; i++) {
    const event = worldEvent(random, restart);
    if (event.kind === "restart") restart = false;
    lives.push([event]);
  }

  const actions: Action[] = [];
  const take = () => {
    // A life is chosen by how much of it is left, so long lives spread over the whole run.
    const left = lives.reduce((s, l) => s + l.length, 0);
    let at = random.int(left);
    let index = 0;
    while (at >= lives[index].length) at -= lives[index++].length;
    const life = lives[index];
    const action = life.shift()!;
    if (life.length === 0) lives.splice(lives.indexOf(life), 1);
    return action;
  };
  while (lives.length > 0) {
    const action = take();
    const pairable = !["create", "auction", "restart", "close"].includes(action.kind);
    if (pairable && lives.length > 0 && random.chance(0.15)) {
      const other = take();
      // A step that makes what the other names must come first: it runs alone.
      if (other.kind === "create" || other.kind === "auction" || other.kind === "restart")
        actions.push(action, other);
      else actions.push({ kind: "together", actions: [action, other] });
    } else {
      actions.push(action);
    }
  }
  return actions;
}

/** One line per step, for the log a failing run prints. */
export function describeAction(action: Action): string {
  if (action.kind === "together") return `together [${action.actions.map(describeAction).join(" | ")}]`;
  const { kind, ...rest } = action;
  const fields = Object.entries(rest).map(([key, value]) => `${key}=${value}`);
  return [kind, ...fields].join(" ");
}
