import type { ApiActivity } from "./activity.ts";
import type { Server } from "./server.ts";

// A drain first keeps serving until no request has been in flight for QUIET_MS, for at most
// ACCEPT_MAX_MS: connections a client opened just before the signal, still in the kernel's accept
// queue, are answered rather than reset, and a load balancer has a moment to read /health's 503.
const QUIET_MS = 250;
const ACCEPT_MAX_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface HttpDrain {
  /** True once a shutdown has begun: /health answers 503 and answers carry `connection: close`. */
  readonly draining: boolean;
  /**
   * Lets every request in flight finish, then stops listening, by `deadline` (epoch ms) at the
   * latest; connections still open then are cut.
   */
  drain(deadline: number): Promise<void>;
}

export function registerDrain(app: Server, activity: ApiActivity): HttpDrain {
  let draining = false;
  // Keep-alive clients are told to open their next request elsewhere.
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (draining) reply.header("connection", "close");
    done(null, payload);
  });
  return {
    get draining() {
      return draining;
    },
    async drain(deadline) {
      draining = true;
      const acceptUntil = Math.min(deadline, Date.now() + ACCEPT_MAX_MS);
      while (Date.now() < acceptUntil && !(activity.inFlight === 0 && activity.quietFor(QUIET_MS))) {
        await sleep(20);
      }
      // Stops listening and closes idle connections; requests still running finish on theirs.
      const closed = app.close().then(() => true);
      const late = sleep(Math.max(0, deadline - Date.now())).then(() => false);
      if (!(await Promise.race([closed, late]))) {
        app.server.closeAllConnections();
        await closed;
      }
    },
  };
}
