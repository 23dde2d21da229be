import { boolean, ConfigError, type Env, integer } from "./parse.ts";

/** What this process does: serve the API, run the job worker, or both (README, "Running in production"). */
export interface ProcessSettings {
  /** Serve the HTTP API and hosted pages (`RUN_API`); off for a worker-only process. */
  runApi: boolean;
  /** Run the job worker in this process (`RUN_WORKER`). */
  runWorker: boolean;
  /**
   * How long a shutdown (SIGTERM or SIGINT) waits for requests in flight and running jobs before it
   * cuts them off; a cut-off job is handed back and runs again in another worker.
   */
  shutdownTimeoutSeconds: number;
  /** A worker-only process serves its health checks on this port (`HEALTH_PORT`); absent: none. */
  healthPort: number | undefined;
  /** How often freed memory the C allocator keeps is given back (`MEMORY_TRIM_SECONDS`; 0: never). */
  memoryTrimSeconds: number;
  /** How long a request's body may take to arrive before it is answered 408 (`REQUEST_BODY_TIMEOUT_SECONDS`). */
  requestBodyTimeoutSeconds: number;
}

export function processSettings(env: Env): ProcessSettings {
  const runApi = boolean(env, "RUN_API", true);
  const runWorker = boolean(env, "RUN_WORKER", true);
  if (!runApi && !runWorker) {
    throw new ConfigError("RUN_API", "RUN_API and RUN_WORKER are both false: this process would do nothing");
  }
  const healthPort = env.HEALTH_PORT ? integer(env, "HEALTH_PORT", 0, 1, 65535) : undefined;
  if (healthPort !== undefined && runApi) {
    throw new ConfigError(
      "HEALTH_PORT",
      "is for worker-only processes (RUN_API=false); the API serves /health",
    );
  }
  return {
    runApi,
    runWorker,
    // Long enough for any request and most jobs (a provider call times out well within it), short
    // enough for an orchestrator's default grace period (Kubernetes gives 30 s).
    shutdownTimeoutSeconds: integer(env, "SHUTDOWN_TIMEOUT_SECONDS", 25, 1, 3600),
    healthPort,
    // An idle trim takes 1 to 2 ms: every 10 s is a few hundredths of a percent of a core, and soon
    // enough to catch what start-up compiling on background threads frees after the first trim.
    memoryTrimSeconds: integer(env, "MEMORY_TRIM_SECONDS", 10, 0, 3600),
    // A 1 MiB body arrives in well under a second on any link a client pays on; a body that stalls
    // (shorter than its Content-Length) must not hold a connection and its request slot for long.
    requestBodyTimeoutSeconds: integer(env, "REQUEST_BODY_TIMEOUT_SECONDS", 10, 1, 300),
  };
}
