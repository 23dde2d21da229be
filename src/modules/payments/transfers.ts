// A seller's transfers are the pipeline's transfer-to-seller step (pipeline/transfer-to-seller.ts)
// and their reversals its reverse-transfers step (pipeline/reverse-transfers.ts). Kept for the
// callers that name this file.
export {
  failureOf,
  resumeSellerTransfers,
  retryDelaySeconds,
  SETTLE_RETRY,
} from "./pipeline/transfer-to-seller.ts";
