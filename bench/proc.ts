// What this machine's processes and CPUs have spent, read from Linux's /proc: the CPU figures of
// `npm run bench:ab` and `npm run bench:idle`, and the wait for a quiet machine before a window.
import { readdirSync, readFileSync } from "node:fs";

/** USER_HZ: /proc/<pid>/stat counts CPU time in these on Linux. */
const TICKS_PER_SECOND = 100;

/** CPU time a process has used so far, ms (utime + stime of /proc/<pid>/stat). */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name may hold spaces; the fields after its closing parenthesis are fixed.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // utime and stime are fields 14 and 15 of the line.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/**
 * CPU time each PostgreSQL process of this machine has used so far, ms, by pid; empty on PGlite
 * (the database runs in the side's own process). The two sides' windows never overlap, so what the
 * server spends during one is that side's (with the server's background work, about a millisecond
 * a second when idle).
 */
export function databaseCpuMs(): Map<number, number> {
  const spent = new Map<number, number>();
  if (!process.env.BENCH_DATABASE_URL) return spent;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").startsWith("postgres")) {
        spent.set(Number(entry), cpuMsOf(Number(entry)));
      }
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return spent;
}

/** What the PostgreSQL processes spent between two readings (a process that ended is left out). */
export function databaseCpuSince(before: Map<number, number>): number {
  let spent = 0;
  for (const [pid, ms] of databaseCpuMs()) spent += ms - (before.get(pid) ?? 0);
  return spent;
}

/** Busy and total clock ticks of all the machine's CPUs so far (the first line of /proc/stat). */
function machineTicks(): { busy: number; total: number } {
  const ticks = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const total = ticks.reduce((sum, n) => sum + n, 0);
  // Fields 4 and 5: idle and waiting for I/O.
  return { busy: total - ticks[3] - ticks[4], total };
}

// A window starts once the machine is quiet: the work a measure leaves behind (the lifecycle's
// autovacuum and the worker's last jobs, the other side's included) would otherwise fall in the
// next window, on whichever side comes next. Quiet: under 5% of the machine busy for half a second
// (about 1% when idle).
const QUIET_SHARE = 0.05;

/** Waits up to 20 s for a quiet machine; false when it did not come (the window starts anyway). */
export async function quiet(): Promise<boolean> {
  for (const until = performance.now() + 20_000; performance.now() < until; ) {
    const before = machineTicks();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = machineTicks();
    if (after.busy - before.busy < QUIET_SHARE * (after.total - before.total)) return true;
  }
  return false;
}
