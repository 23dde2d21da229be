import { closeSync, openSync } from "node:fs";

/**
 * Crash-test points, for the crash tests and `npm run crash-trials`: with `FAULT_CRASH_AT=<point>`
 * and `FAULT_MARKER=<file>` set, the process kills itself (SIGKILL, as an out-of-memory kill or a
 * pulled plug would) the first time it passes `point`; the marker file makes it once per test.
 * Read by the configuration and passed in through `Deps`; absent in every real deployment, where
 * `crashPoint` does nothing.
 */
export interface Faults {
  crashPoint(point: string): void;
}

const NO_FAULTS: Faults = { crashPoint() {} };

export function createFaults(settings: { crashAt?: string; marker?: string }): Faults {
  const { crashAt, marker } = settings;
  if (!crashAt || !marker) return NO_FAULTS;
  return {
    crashPoint(point) {
      if (point !== crashAt) return;
      try {
        closeSync(openSync(marker, "wx"));
      } catch {
        return; // already crashed here once
      }
      process.kill(process.pid, "SIGKILL");
    },
  };
}
