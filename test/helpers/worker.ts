import { type ChildProcess, spawn } from "node:child_process";
import type { PgBoss } from "pg-boss";

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

/**
 * Sends a scheduled job's next run now, as pg-boss's clock would send it: with the data stored
 * with the schedule, read back from pg-boss, never data a test makes up (schedules once sent null,
 * which every scheduled job failed on while the tests sent `{}`). Answers the job's id.
 */
export async function sendAsScheduled(boss: PgBoss, name: string): Promise<string> {
  const schedule = (await boss.getSchedules()).find((s) => s.name === name);
  if (!schedule) throw new Error(`${name} has no schedule`);
  const id = await boss.send(name, schedule.data as object);
  if (!id) throw new Error(`${name}: pg-boss sent nothing`);
  return id;
}
