import assert from "node:assert/strict";
import { test } from "node:test";
import type { PaymentRow } from "../../src/modules/payments/lifecycle.ts";
import { reverseTransfers } from "../../src/modules/payments/pipeline/reverse-transfers.ts";
import type { PaymentProvider } from "../../src/platform/providers/payments/types.ts";

// Which reversals a payment's transfers still owe, decided from what the payment recorded. The
// order of a refund's job and a bank return's job is the queue's, so the case where the return's
// reversal came first (it takes back all that was left) is set up here directly: the refund's part
// that comes after must ask the provider for nothing. The journeys of both orders run in the
// simulation (docs/reliability.md), whose invariant says a payment reports a failed reversal only
// while its seller still holds money of it.

/** A provider that records the reversals asked of it and refuses them: nothing is left to take. */
function refusingProvider(asked: string[]) {
  return {
    async reverseTransfer(transferId: string, input: { amount?: bigint }) {
      asked.push(`${transferId} ${input.amount ?? "all"}`);
      throw Object.assign(new Error("the transfer has nothing left to reverse"), { permanent: true });
    },
  } as unknown as PaymentProvider;
}

const payment = (transfers: Record<string, string>) =>
  ({ id: "pay_1", transfers, refundedAmount: 500n }) as unknown as PaymentRow;
const deps = { db: undefined as never, now: () => new Date() };

test("a refund's part of a share a bank return took back whole is not asked for", async () => {
  const asked: string[] = [];
  const failure = await reverseTransfers(
    deps,
    refusingProvider(asked),
    payment({ seller: "tr_1", "seller:reversal:return": "trr_1" }),
    true,
    { suffix: "", amount: () => 300n },
  );
  assert.deepEqual(asked, []);
  assert.equal(failure, undefined, "nothing to report on the payment");
});

test("before the return's reversal, the refund's part is asked for", async () => {
  const asked: string[] = [];
  const failure = await reverseTransfers(deps, refusingProvider(asked), payment({ seller: "tr_1" }), true, {
    suffix: "",
    amount: () => 300n,
  });
  assert.deepEqual(asked, ["tr_1 300"]);
  assert.ok(failure, "a refusal is reported");
});
