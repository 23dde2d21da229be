import type { KnownPayment, World } from "./world.ts";

/** Statuses after which the service waits for nothing: the chain, the provider and the clock are done. */
const NON_FINAL = new Set(["pending", "hold"]);
/** The money was taken (and kept, or given back by a refund the app asked for). */
const CAPTURED = new Set(["paid", "refunded", "failed-transfers"]);
/** The books hold the charge: held, captured, or collected and waiting for the app. */
const IN_BOOKS = new Set(["hold", "paid", "refunded", "failed-captured", "failed-transfers"]);
const FINAL_BIDS = new Set(["won", "outbid", "refused", "expired", "failed"]);

/** A collected bank debit its bank took back: the money went back to the shopper, past any decision. */
const returned = (p: any): boolean => p.transaction_response?.error?.returned_after_collection === true;

/** Minor units of a USD amount the API answers as a number (`12.71`) or a decimal string (`"-3.2"`). */
const cents = (amount: number | string): bigint => {
  const [whole, fraction = ""] = String(amount).replace("-", "").split(".");
  const value = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0").slice(0, 2));
  return String(amount).startsWith("-") ? -value : value;
};

async function pages(world: World, url: string): Promise<any[]> {
  const found: any[] = [];
  for (let page = 1; ; page++) {
    const joiner = url.includes("?") ? "&" : "?";
    const answer = await world.call("GET", `${url}${joiner}limit=100&page=${page}`, [200]);
    found.push(...answer.body);
    if (answer.body.length < 100) return found;
  }
}

/**
 * Everything the service answers once the run is over, read through the public API: payments
 * (bids' included) with their events, the auctions, the webhook delivery log, the balances.
 */
export interface Observed {
  payments: any[];
  events: Map<string, any[]>;
  auctions: any[];
  deliveries: any[];
  balances: any[];
  /** `GET /reports/{app_id}/seller-payouts`' rows: per seller, what the books say they are owed. */
  sellerPayouts: any[];
}

/** What the run ends with: what it observes, and a reconciliation run started then, finished. */
export interface FinalState extends Observed {
  reconciliation: { id: string; status: string; mismatches: unknown[] };
}

export async function readFinalState(world: World): Promise<Observed> {
  const payments = await world.allPayments();
  const events = new Map<string, any[]>();
  for (const payment of payments) {
    events.set(payment.id, await pages(world, `/payments/${world.appId}/${payment.id}/events`));
  }
  const auctions = [];
  for (const [i, known] of world.auctions.entries()) if (known) auctions.push(await world.auction(i));
  const deliveries = await pages(world, `/webhooks/${world.appId}/${world.endpointId}/deliveries`);
  const balances = (await world.call("GET", `/balances/${world.appId}`, [200])).body.balances;
  const sellerPayouts = (await world.call("GET", `/reports/${world.appId}/seller-payouts`, [200])).body
    .sellers;
  return { payments, events, auctions, deliveries, balances, sellerPayouts };
}

/**
 * The app's books compared with its payments, the provider and the chain, as an operator asks for
 * it (`POST /reconciliations/{app_id}`): the finished run.
 */
export async function reconcile(world: World): Promise<FinalState["reconciliation"]> {
  const started = await world.call("POST", `/reconciliations/${world.appId}`, [201]);
  return world.until("the reconciliation to finish", 30_000, async () => {
    const run = (await world.call("GET", `/reconciliations/${world.appId}/${started.body.id}`, [200])).body;
    return run.status === "running" ? undefined : run;
  });
}

/**
 * What a run ended with, for its log: payments by status, sellers' transfers and reversals, returned
 * debits, and the reconciliation's verdict (so a batch of seeds shows what it exercised).
 */
export function summary(state: FinalState): string {
  const statuses = new Map<string, number>();
  for (const p of state.payments) statuses.set(p.status, (statuses.get(p.status) ?? 0) + 1);
  const transfers = state.payments.flatMap((p) => p.transfers ?? []);
  const reversed = transfers.filter((t) => cents(t.amount_reversed) > 0n).length;
  return [
    `ended with ${state.payments.length} payments (${[...statuses].map(([s, n]) => `${s} ${n}`).join(", ")})`,
    `${transfers.length} seller transfers (${reversed} reversed in part or whole)`,
    `${state.payments.filter(returned).length} debits returned`,
    `${state.payments.filter((p) => p.kyc_id && p.kyc_id !== p.price?.kyc_id).length} payouts ending at another seller than their price's`,
    `${[...state.events.values()].filter((events) => events.some((e) => e.to_status === "failed-transfers")).length} transfers failed on the way`,
    `reconciliation ${state.reconciliation.status}`,
  ].join(", ");
}

/**
 * True once nothing the run made waits for a job, the chain or the clock any more. A refund or a
 * seller's reversal whose provider call is being retried (its answer lost) shows only in the books:
 * a refund in flight, or sellers owed other than the shares of `failed-transfers` payments.
 */
export function isSettled(state: Observed): boolean {
  const usd = state.balances.find((b) => b.currency === "usd");
  const owed = state.payments
    .filter((p) => p.status === "failed-transfers")
    .reduce((s, p) => s + keptShare(p), 0n);
  return (
    cents(usd?.refunds_in_flight ?? "0") === 0n &&
    cents(usd?.owed_to_sellers ?? "0") === owed &&
    state.payments.every((p) => !NON_FINAL.has(p.status)) &&
    state.auctions.every((a) => a.expired && a.bids.every((b: any) => FINAL_BIDS.has(b.status))) &&
    state.deliveries.every((d) => d.status === "succeeded")
  );
}

/**
 * The properties every run must end with (docs/reliability.md, "Simulation"). Answers one line
 * per violation, empty when the run is sound.
 */
export function checkInvariants(world: World, state: FinalState): string[] {
  const violations: string[] = [];
  const fail = (name: string, message: string) => violations.push(`${name}: ${message}`);
  const known = new Map<string, KnownPayment>();
  for (const p of [...world.payments, ...world.bids]) if (p) known.set(p.id, p);

  for (const p of state.payments) {
    const delivered = p.confirmation_status?.confirmed === true;
    const marker = known.get(p.id)?.marker;
    const label = `${p.id} (${p.payment_provider}, marker ${marker ?? "?"}, ${p.status})`;
    // Nothing left waiting once every bound has passed and the jobs have run.
    if (NON_FINAL.has(p.status)) fail("non-final", `${label} is still ${p.status}`);
    // No delivery without payment: a confirmed call is captured money (or money the app gave back),
    // unless the shopper's bank took a collected debit back afterwards, which no one can refuse.
    if (delivered && !CAPTURED.has(p.status) && !returned(p))
      fail("delivery-unpaid", `${label}: its call confirmed`);
    // No payment without delivery: money taken for a trigger's call means the call landed.
    if (
      marker !== undefined &&
      marker !== "none" &&
      ["paid", "failed-transfers"].includes(p.status) &&
      !delivered
    )
      fail("paid-undelivered", `${label}: paid but its call is not confirmed`);
    // A call that was sent and failed stays on the record, with the chain's reason.
    if (["cancelled", "failed"].includes(p.status) && p.transaction_id && !p.transaction_response?.error)
      fail("unrecorded-failure", `${label}: its call ${p.transaction_id} ended without an error recorded`);
    // The sandbox chain's outcome is the trigger's marker: the payment must tell the same story.
    if (marker && ["revert", "drop", "unfunded"].includes(marker)) {
      if (delivered) fail("chain-outcome", `${label}: confirmed, though the chain fails this call`);
      if (["paid", "failed-transfers"].includes(p.status))
        fail("chain-outcome", `${label}: charged for a failed call`);
    }
    if (marker && ["success", "slow"].includes(marker) && p.transaction_id && !delivered)
      fail("chain-outcome", `${label}: its call ${p.transaction_id} was signed and never confirmed`);
    if (marker === "none" && p.transaction_id) fail("chain-outcome", `${label}: a call without a trigger`);
    // Refunds never exceed the charge, and `refunded` means all of it.
    const refunded = cents(p.amount_refunded);
    if (refunded > cents(p.final_amount))
      fail("refund", `${label}: refunded ${p.amount_refunded} of ${p.final_amount}`);
    if (p.status === "refunded" && refunded !== cents(p.final_amount))
      fail("refund", `${label}: refunded but only ${p.amount_refunded} of ${p.final_amount} went back`);
  }

  checkLots(state, fail);
  checkWebhooks(world, state, fail);
  checkBooks(state, fail);
  checkSellers(known, state, fail);
  if (state.reconciliation.status !== "clean")
    fail(
      "reconciliation",
      `run ${state.reconciliation.id} is ${state.reconciliation.status}: ${JSON.stringify(state.reconciliation.mismatches)}`,
    );
  return violations;
}

/** At most one delivery per auction lot, and the winner is the one charged. */
function checkLots(state: FinalState, fail: (name: string, message: string) => void) {
  const byId = new Map(state.payments.map((p) => [p.id, p]));
  for (const auction of state.auctions) {
    const payments = auction.bids.map((b: any) => byId.get(b.payment.id) ?? b.payment);
    const delivered = payments.filter((p: any) => p.confirmation_status?.confirmed === true);
    const charged = payments.filter((p: any) => CAPTURED.has(p.status));
    const won = auction.bids.filter((b: any) => b.status === "won");
    if (delivered.length > 1)
      fail(
        "one-delivery",
        `auction ${auction.id}: ${delivered.map((p: any) => p.id).join(", ")} all delivered`,
      );
    if (charged.length > 1)
      fail("one-charge", `auction ${auction.id}: ${charged.map((p: any) => p.id).join(", ")} all charged`);
    if (won.length > 1)
      fail("one-winner", `auction ${auction.id}: bids ${won.map((b: any) => b.id)} all won`);
    if (!auction.expired) fail("non-final", `auction ${auction.id} never closed`);
    for (const bid of auction.bids) {
      if (!FINAL_BIDS.has(bid.status))
        fail("non-final", `auction ${auction.id}: bid ${bid.id} is ${bid.status}`);
    }
    const winner = auction.bids.find((b: any) => b.id === auction.winner_bid_id);
    if (winner && !CAPTURED.has(byId.get(winner.payment.id)?.status))
      fail(
        "winner-charged",
        `auction ${auction.id}: winner ${winner.id}'s payment is ${byId.get(winner.payment.id)?.status}`,
      );
    if (!auction.winner_bid_id && charged.length > 0)
      fail("winner-charged", `auction ${auction.id}: no winner, yet ${charged[0].id} was charged`);
  }
}

/** Every event reached the subscribed receiver at least once, and every status change was an event. */
function checkWebhooks(world: World, state: FinalState, fail: (name: string, message: string) => void) {
  const received = new Map<string, any>();
  const requests = new Map<string, number>();
  for (const r of world.receiver.received) {
    const id = String(r.headers["webhook-id"]);
    received.set(id, JSON.parse(r.body));
    requests.set(id, (requests.get(id) ?? 0) + 1);
  }
  for (const delivery of state.deliveries) {
    if (delivery.status !== "succeeded")
      fail("webhook", `delivery ${delivery.id} of ${delivery.event.type} is ${delivery.status}`);
    if (!received.has(delivery.event.id))
      fail("webhook", `event ${delivery.event.id} (${delivery.event.type}) never reached the receiver`);
    // The log counts every attempt: at least every request the receiver saw for it.
    const seenTimes = requests.get(delivery.event.id) ?? 0;
    if (delivery.attempt_count < seenTimes)
      fail(
        "webhook",
        `delivery ${delivery.id}: ${delivery.attempt_count} attempts logged, ${seenTimes} received`,
      );
  }
  const seen = new Map<string, number>();
  for (const event of received.values()) {
    if (!event.type.startsWith("payment.")) continue;
    const key = `${event.data.id} ${event.type}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  for (const [paymentId, events] of state.events) {
    const wanted = new Map<string, number>();
    for (const e of events) {
      const key = `${paymentId} payment.${e.to_status}`;
      wanted.set(key, (wanted.get(key) ?? 0) + 1);
    }
    for (const [key, count] of wanted) {
      if ((seen.get(key) ?? 0) < count)
        fail("webhook", `${key}: ${count} moves, ${seen.get(key) ?? 0} webhooks`);
    }
  }
}

/** The books agree with the payments: every charge is accounted for, nothing is left held. */
function checkBooks(state: FinalState, fail: (name: string, message: string) => void) {
  const usd = state.balances.find((b) => b.currency === "usd") ?? {};
  const field = (name: string) => cents(usd[name] ?? "0");
  const fields = [
    "available",
    "pending",
    "owed_to_sellers",
    "paid_to_sellers",
    "platform_fees",
    "provider_fees",
    "refunds_in_flight",
    "refunded",
  ];
  const inBooks = state.payments
    .filter((p) => IN_BOOKS.has(p.status) || returned(p))
    .reduce((s, p) => s + cents(p.final_amount), 0n);
  const total = fields.reduce((s, name) => s + field(name), 0n);
  if (total !== inBooks) fail("ledger", `the books hold ${total} cents, the payments ${inBooks}`);
  const held = state.payments
    .filter((p) => p.status === "hold" && p.payment_provider === "card")
    .reduce((s, p) => s + cents(p.final_amount), 0n);
  if (field("pending") !== held) fail("ledger", `pending ${usd.pending} but ${held} cents are held on cards`);
  // A returned debit is in `refunded` too: what was not refunded before the bank took it back.
  const refunds = state.payments.reduce(
    (s, p) => s + (returned(p) ? cents(p.final_amount) : cents(p.amount_refunded)),
    0n,
  );
  if (field("refunded") + field("refunds_in_flight") !== refunds)
    fail(
      "ledger",
      `refunds booked ${usd.refunded} + ${usd.refunds_in_flight}, payments and returns say ${refunds} cents`,
    );
  if (field("refunds_in_flight") !== 0n) fail("ledger", `refunds still in flight: ${usd.refunds_in_flight}`);
}

/** `a / b` rounded half up, for amounts that are not negative (docs/ledger.md: refunds' shares). */
const roundHalfUp = (a: bigint, b: bigint) => (2n * a + b) / (2n * b);

/** The seller's share of a payment, less its refunds' part (docs/ledger.md's rounding). */
function keptShare(p: any): bigint {
  const share = cents(p.price_item?.amount_seller ?? 0);
  return share - roundHalfUp(share * cents(p.amount_refunded), cents(p.final_amount));
}

/**
 * A seller holds their share of what the shopper kept paying, once: per payment of a seller's
 * price, its transfers less their reversals are the share less the refunds' part of it while
 * `paid`, and nothing once the money went back (refunded, returned) or never came (cancelled,
 * failed); a `failed-transfers` payment's share is what the books say the app owes its sellers.
 * A price without a seller is never transferred.
 */
function checkSellers(
  known: Map<string, KnownPayment>,
  state: FinalState,
  fail: (name: string, message: string) => void,
) {
  let owed = 0n;
  const owedTo = new Map<string, bigint>();
  for (const p of state.payments) {
    const transfers: any[] = p.transfers ?? [];
    const held = transfers.reduce((s, t) => s + cents(t.amount) - cents(t.amount_reversed), 0n);
    const label = `${p.id} (${p.payment_provider}, ${p.status})`;
    if (!known.get(p.id)?.seller) {
      if (transfers.length > 0) fail("seller", `${label}: transferred, though its price has no seller`);
      continue;
    }
    const kept = keptShare(p);
    if (p.status === "failed-transfers") {
      owed += kept;
      owedTo.set(p.kyc_id, (owedTo.get(p.kyc_id) ?? 0n) + kept);
      continue;
    }
    const due = p.status === "paid" ? kept : 0n;
    if (held !== due) fail("seller", `${label}: the seller holds ${held} cents of it, ${due} due`);
    // The payment tells the app a reversal failed only while the seller still holds money of it.
    const said = String(p.transaction_response?.error?.message ?? "");
    if (said.includes("was not reversed") && held === 0n)
      fail("seller", `${label}: says "${said}", though the seller gave everything back`);
  }
  const usd = state.balances.find((b) => b.currency === "usd") ?? {};
  if (cents(usd.owed_to_sellers ?? "0") !== owed)
    fail("seller", `the books owe sellers ${usd.owed_to_sellers}, failed transfers ${owed} cents`);
  // And each seller is owed their own: a payout pointed at another seller moved its share along.
  const report = new Map<string, bigint>(
    state.sellerPayouts.filter((r) => r.currency === "usd").map((r) => [r.kyc_id, cents(r.owed_at_end)]),
  );
  for (const kycId of new Set([...report.keys(), ...owedTo.keys()])) {
    const booked = report.get(kycId) ?? 0n;
    const due = owedTo.get(kycId) ?? 0n;
    if (booked !== due)
      fail("seller", `seller ${kycId} is owed ${booked} cents in the books, ${due} by the payments`);
  }
}
