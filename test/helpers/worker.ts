import { type ChildProcess, spawn } from "node:child_process";

/**
 * A job worker in its own process (test/fixtures/worker.ts) on the test's database, in sandbox
 * mode, with `env` on top: what a crash test kills (`FAULT_CRASH_AT`) and starts again.
 * `exited` resolves with the signal that ended it (null for a normal exit).
 */
export function startWorker(
  connectionString: string,
  env: Record<string, string>,
): { child: ChildProcess; exited: Promise<string | null> } {
  const child = spawn(process.execPath, ["test/fixtures/worker.ts"], {
    env: { ...process.env, DATABASE_URL: connectionString, SANDBOX: "true", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<string | null>((resolve) =>
    child.once("exit", (_code, signal) => resolve(signal)),
  );
  return { child, exited };
}
