import {
  AUTHORIZE_JOB,
  CONFIRMATIONS_JOB,
  EXECUTE_JOB,
  PREPARE_INTENT_JOB,
  REFUND_JOB,
  RELEASE_HOLD_JOB,
  REVERSE_TRANSFERS_JOB,
  SETTLE_JOB,
  SYNC_JOB,
} from "../job-names.ts";
import type { PaymentStatus } from "../tables.ts";

/** A status change a step makes; `null` as the first status: the payment is created. */
export type Move = readonly [from: PaymentStatus | null, to: PaymentStatus];

export interface PipelineStep {
  /** What it does; its file is `<step>.ts` in this folder. */
  step: string;
  /** The pg-boss jobs that run it (job-names.ts). */
  jobs: readonly string[];
  /** Every status change its code makes, each one lifecycle.ts allows; none: it moves no status. */
  moves: readonly Move[];
  /** What undoes it: `name`, exported by the file of step `step`; null when nothing can. */
  compensation: { step: string; name: string } | null;
}

/**
 * The payment's steps in the order they run, one file each in this folder; a file's opening
 * comment says what its step guarantees when the process dies in the middle of it.
 * docs/payments.md's step table is this list (test/payments/state-diagram.test.ts compares them).
 * Commands and sweeps outside the pipeline make the other moves: cancel and retry (commands.ts),
 * expiry (expire.ts), a bank debit returned (returns.ts), an auction's end (auction-hooks.ts).
 */
export const PIPELINE: readonly PipelineStep[] = [
  {
    step: "open",
    jobs: [],
    moves: [
      [null, "pending"],
      ["failed", "pending"],
    ],
    compensation: { step: "release-hold", name: "releaseHoldJob" },
  },
  {
    step: "authorize",
    // The intent is made by the authorize job; prepare-intent runs only jobs queued before it was.
    jobs: [AUTHORIZE_JOB, SYNC_JOB, PREPARE_INTENT_JOB],
    moves: [
      ["pending", "hold"],
      ["pending", "failed"],
      ["pending", "cancelled"],
    ],
    compensation: { step: "release-hold", name: "releaseHoldJob" },
  },
  {
    step: "execute-call",
    jobs: [EXECUTE_JOB],
    moves: [
      ["hold", "cancelled"],
      ["hold", "failed"],
      ["hold", "failed-captured"],
    ],
    compensation: { step: "execute-call", name: "chainFailed" },
  },
  {
    step: "await-confirmations",
    jobs: [CONFIRMATIONS_JOB],
    moves: [
      ["hold", "cancelled"],
      ["hold", "failed-captured"],
    ],
    compensation: { step: "execute-call", name: "chainFailed" },
  },
  {
    step: "capture",
    // The authorize job settles a payment it held itself when nothing else is to happen between
    // (transfer-to-seller.ts, `settlesWithAuthorization`): a card it captures before its hold is
    // written moves through `hold` to `paid` in one statement (`paidOnAuthorization`).
    jobs: [SETTLE_JOB, AUTHORIZE_JOB],
    moves: [
      ["pending", "hold"],
      ["hold", "paid"],
    ],
    compensation: { step: "refund", name: "refundLocked" },
  },
  {
    step: "transfer-to-seller",
    jobs: [SETTLE_JOB, AUTHORIZE_JOB],
    moves: [
      ["hold", "paid"],
      ["failed-captured", "paid"],
      ["failed-transfers", "paid"],
      ["paid", "failed-transfers"],
    ],
    compensation: { step: "reverse-transfers", name: "reverseTransfers" },
  },
  {
    step: "refund",
    jobs: [REFUND_JOB],
    moves: [
      ["paid", "refunded"],
      ["failed-captured", "refunded"],
      ["failed-transfers", "refunded"],
    ],
    compensation: null,
  },
  { step: "release-hold", jobs: [RELEASE_HOLD_JOB], moves: [], compensation: null },
  { step: "reverse-transfers", jobs: [REVERSE_TRANSFERS_JOB], moves: [], compensation: null },
];
