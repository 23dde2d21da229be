import assert from "node:assert/strict";
import fc from "fast-check";
import {
  ACCOUNTS,
  type LedgerEvent,
  type LedgerLine,
  ledgerEntriesFor,
  type PaymentFigures,
  portion,
} from "../../src/modules/ledger/entries.ts";
import { currencyOf } from "../../src/platform/money/currencies.ts";
import { computeFees } from "../../src/platform/money/fees.ts";

// The books after random lives of payments (fast-check, seeded: FC_SEED=<n> replays a run, and a
// failure prints its seed and path). Each payment is priced by the fee model, then held, captured
// or released, transferred (or its transfer fails and is retried), refunded in parts or whole,
// returned by the bank, with events posted again as a restarted process would. After every
// sequence: each ledger transaction sums to zero, each account holds exactly what the price_item
// figures say it must, and each seller's paid account equals the transfers made less reversals.
// Then one batch goes through the database, whose trigger must take it and whose balances agree.

export const SEED = Number(process.env.FC_SEED ?? 2026);
const usd = currencyOf("usd", "currency");

const figuresArb = fc
  .record({
    amount: fc.bigInt({ min: 1n, max: 10_000_000n }),
    platformFeeBps: fc.integer({ min: 0, max: 2000 }),
    appFeeBps: fc.integer({ min: 0, max: 2000 }),
    percentBps: fc.integer({ min: 0, max: 500 }),
    minFee: fc.bigInt({ min: 0n, max: 50n }),
    marketplace: fc.boolean(),
  })
  .map((r) => {
    const fees = computeFees({
      amount: r.amount,
      priceCurrency: usd,
      chargeCurrency: usd,
      provider: { percentBps: r.percentBps, minFee: r.minFee },
      platformFeeBps: r.platformFeeBps,
      appFeeBps: r.appFeeBps,
      appType: r.marketplace ? "marketplace" : "individual",
    });
    return { fees, marketplace: r.marketplace };
  });

/** What happens to a payment, as choices the model turns into events (0..1 picks a refund's size). */
const stepArb = fc.oneof(
  fc.constant({ kind: "cancel" as const }),
  fc.constant({ kind: "capture" as const }),
  fc.record({ kind: fc.constant("transfer" as const), fails: fc.boolean() }),
  fc.record({ kind: fc.constant("refund" as const), part: fc.double({ min: 0.01, max: 1, noNaN: true }) }),
  fc.constant({ kind: "settle_refunds" as const }),
  fc.constant({ kind: "bank_return" as const }),
  fc.constant({ kind: "restart" as const }),
);

export interface Life {
  figures: PaymentFigures;
  fee: bigint;
  lines: LedgerLine[];
  expected: Map<string, bigint>;
  transferred: bigint;
  reversed: bigint;
}

/** Plays one payment's life: the events the service would post, and what its books must then hold. */
export function live(
  index: number,
  priced: { fees: ReturnType<typeof computeFees>; marketplace: boolean },
  steps: { kind: string; fails?: boolean; part?: number }[],
): Life {
  const f: PaymentFigures = {
    paymentId: `pay_${index}`,
    appId: "app_prop",
    currency: "usd",
    total: priced.fees.amount_total,
    platform: priced.fees.amount_platform,
    app: priced.fees.amount_app,
    seller: priced.fees.amount_seller,
    sellerId: priced.marketplace ? `kyc_${index % 3}` : null,
  };
  const fee = priced.fees.processing_fee_amount + priced.fees.amount_app_transaction_fee;
  const posted: LedgerEvent[] = [{ type: "hold" }];
  let state: "hold" | "released" | "captured" | "returned" = "hold";
  let transferred = 0n;
  let reversed = 0n;
  let refunded = 0n;
  let settledUpTo = 0;
  const refunds: { n: number; before: bigint; after: bigint }[] = [];
  const reverse = (amount: bigint, key: string) => {
    if (transferred - reversed <= 0n || amount === 0n) return;
    const take = amount > transferred - reversed ? transferred - reversed : amount;
    reversed += take;
    posted.push({ type: "transfer_reversal", key, amount: take, reference: `trr_${key}` });
  };
  for (const step of steps) {
    if (step.kind === "cancel" && state === "hold") {
      state = "released";
      posted.push({ type: "void" });
    } else if (step.kind === "capture" && state === "hold") {
      state = "captured";
      posted.push({ type: "capture" });
    } else if (
      step.kind === "transfer" &&
      state === "captured" &&
      f.sellerId &&
      transferred === 0n &&
      refunded === 0n
    ) {
      if (!step.fails && f.seller > 0n) {
        transferred = f.seller;
        posted.push({ type: "transfer", key: "seller", amount: f.seller, reference: "tr_seller" });
      }
    } else if (step.kind === "refund" && state === "captured" && refunded < f.total) {
      // Partial refunds once the seller is paid (or there is none); otherwise whole.
      const partialAllowed = !f.sellerId || transferred > 0n || f.seller === 0n;
      const left = f.total - refunded;
      let amount = partialAllowed ? BigInt(Math.max(1, Math.floor(Number(left) * (step.part ?? 1)))) : left;
      if (amount > left) amount = left;
      const n = refunds.length + 1;
      refunds.push({ n, before: refunded, after: refunded + amount });
      posted.push({ type: "refund", n, before: refunded, after: refunded + amount });
      const sellerPart = portion(f.seller, refunded + amount, f.total) - portion(f.seller, refunded, f.total);
      refunded += amount;
      reverse(sellerPart, n === 1 ? "seller:reversal" : `seller:reversal:${n}`);
    } else if (step.kind === "settle_refunds") {
      for (const r of refunds.slice(settledUpTo)) {
        posted.push({ type: "refund_settled", n: r.n, amount: r.after - r.before, reference: `re_${r.n}` });
      }
      settledUpTo = refunds.length;
    } else if (step.kind === "bank_return" && state === "captured" && refunded < f.total) {
      state = "returned";
      posted.push({ type: "bank_return", refunded });
      reverse(transferred - reversed, refunded === 0n ? "seller:reversal" : "seller:reversal:return");
    } else if (step.kind === "restart" && posted.length > 0) {
      // A restarted job posts what it posted before, again: the books must not change.
      posted.push(posted[posted.length - 1]);
    }
  }
  // Posting twice posts once: what (transaction, line) already has is skipped, as ON CONFLICT does.
  const seen = new Set<string>();
  const lines = posted
    .flatMap((e) => ledgerEntriesFor(e, f))
    .filter((l) => {
      const key = `${l.transactionId}#${l.line}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });

  // What the figures say each account holds, computed without the ledger's code paths.
  const expected = new Map<string, bigint>();
  const add = (account: string, amount: bigint) =>
    expected.set(account, (expected.get(account) ?? 0n) + amount);
  if (state === "hold") add(ACCOUNTS.held, f.total);
  if (state !== "released") add(ACCOUNTS.shoppers, -f.total);
  if (state === "captured" || state === "returned") {
    const taken = state === "returned" ? f.total : refunded;
    // The seller and the app give back their part; the platform the rest (it bears the kept fee).
    add(ACCOUNTS.fees, fee);
    if (f.sellerId) {
      const sellerBack = portion(f.seller, taken, f.total);
      const appBack = portion(f.app, taken, f.total);
      add(ACCOUNTS.app, f.app - appBack);
      add(ACCOUNTS.platform, f.platform - (taken - sellerBack - appBack));
      add(ACCOUNTS.sellerPayable(f.sellerId), f.seller - sellerBack - transferred + reversed);
      add(ACCOUNTS.sellerPaid(f.sellerId), transferred - reversed);
    } else {
      const appBack = portion(f.app + f.seller, taken, f.total);
      add(ACCOUNTS.app, f.app + f.seller - appBack);
      add(ACCOUNTS.platform, f.platform - (taken - appBack));
    }
    const settled = refunds.slice(0, settledUpTo).reduce((s, r) => s + r.after - r.before, 0n);
    add(ACCOUNTS.clearing, refunded - settled);
    add(ACCOUNTS.refunds, settled + (state === "returned" ? f.total - refunded : 0n));
  }
  return { figures: f, fee, lines, expected, transferred, reversed };
}

export const lifeArb = fc.tuple(figuresArb, fc.array(stepArb, { minLength: 0, maxLength: 12 }));

export function checkBooks(lives: Life[]) {
  const sums = new Map<string, bigint>();
  const accounts = new Map<string, bigint>();
  for (const life of lives) {
    for (const l of life.lines) {
      sums.set(
        `${l.transactionId} ${l.currency}`,
        (sums.get(`${l.transactionId} ${l.currency}`) ?? 0n) + l.amount,
      );
    }
    const own = new Map<string, bigint>();
    for (const l of life.lines) own.set(l.account, (own.get(l.account) ?? 0n) + l.amount);
    const nonZero = (m: Map<string, bigint>) => Object.fromEntries([...m].filter(([, v]) => v !== 0n).sort());
    assert.deepEqual(nonZero(own), nonZero(life.expected), `${life.figures.paymentId}'s accounts`);
    if (life.figures.sellerId) {
      assert.equal(
        own.get(ACCOUNTS.sellerPaid(life.figures.sellerId)) ?? 0n,
        life.transferred - life.reversed,
      );
    }
    for (const [a, v] of own) accounts.set(a, (accounts.get(a) ?? 0n) + v);
  }
  for (const [key, sum] of sums) assert.equal(sum, 0n, `${key} sums to zero`);
  return accounts;
}
