import type { Chain, TransactionStatus } from "./adapter.ts";

/** The Payment's `confirmation_status` as the interface names it; `progress` is a percentage 0-100. */
export function confirmationStatus(status: TransactionStatus) {
  const required = Math.max(1, status.requiredConfirmations);
  const confirmations = Math.min(status.confirmations, required);
  return {
    average_seconds: status.averageSeconds,
    progress: status.state === "confirmed" ? 100 : Math.floor((confirmations / required) * 100),
    required_confirmations: required,
    confirmations,
    confirmed: status.state === "confirmed",
  };
}

/** The Payment's `transaction_response`: the error (or null) and the chain's output. */
export function transactionResponse(chain: Chain, status: TransactionStatus) {
  return {
    error: status.error ? { ...status.error } : null,
    [chain]: { output: status.output ?? {} },
  };
}
