// The settle job is two steps of the pipeline: pipeline/capture.ts charges a held card, then
// pipeline/transfer-to-seller.ts pays the seller and moves the payment to `paid` (docs/payments.md,
// "The pipeline"). Kept for the callers that name it.
export { settleJob } from "./pipeline/transfer-to-seller.ts";
