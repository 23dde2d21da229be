import { closeSync, openSync } from "node:fs";

/**
 * Crash-test points. With `FAULT_CRASH_AT=<point>` and `FAULT_MARKER=<file>` in the environment,
 * the process kills itself (SIGKILL, as an out-of-memory kill or a pulled plug would) the first time
 * it passes `point`; the marker file makes it once per test. Both variables are read only here and
 * are absent in every real deployment, where this is a string comparison and nothing more.
 */
export function crashPoint(point: string): void {
  if (process.env.FAULT_CRASH_AT !== point || !process.env.FAULT_MARKER) return;
  try {
    closeSync(openSync(process.env.FAULT_MARKER, "wx"));
  } catch {
    return; // already crashed here once
  }
  process.kill(process.pid, "SIGKILL");
}
