import type { Deps } from "../../deps.ts";
import type { JobDefinition } from "../../platform/jobs/index.ts";
import { expirePendingJob } from "./expire.ts";
import { authorizeJob, syncJob } from "./pipeline/authorize.ts";
import { confirmationsJob } from "./pipeline/await-confirmations.ts";
import { executeJob } from "./pipeline/execute-call.ts";
import { prepareIntentJob } from "./pipeline/open.ts";
import { refundJob } from "./pipeline/refund.ts";
import { releaseHoldJob } from "./pipeline/release-hold.ts";
import { reverseTransfersJob } from "./pipeline/reverse-transfers.ts";
import { settleJob } from "./pipeline/transfer-to-seller.ts";

// The payments module's jobs: the pipeline's steps (pipeline/, in their order in
// pipeline/index.ts and docs/payments.md, "The pipeline") and the sweep of abandoned payments.

export function paymentJobs(deps: Deps): JobDefinition<never>[] {
  return [
    prepareIntentJob(deps),
    authorizeJob(deps),
    syncJob(deps),
    executeJob(deps),
    confirmationsJob(deps),
    settleJob(deps),
    releaseHoldJob(deps),
    refundJob(deps),
    reverseTransfersJob(deps),
    expirePendingJob(deps),
  ] as JobDefinition<never>[];
}
