// The chain step is two steps of the pipeline now: pipeline/execute-call.ts signs, stores and
// sends the contract call, pipeline/await-confirmations.ts follows it (docs/payments.md, "The
// pipeline"). Kept for the callers that name it.
export { followChainCall } from "./pipeline/await-confirmations.ts";
export { EXECUTE_RETRY_LIMIT, MAX_CHAIN_SENDINGS, runChainStep } from "./pipeline/execute-call.ts";
