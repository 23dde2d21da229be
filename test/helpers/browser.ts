import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium } from "playwright-core";
import { buildTestApp, type TestApp } from "./app.ts";

/**
 * Debian's headless shell of Chromium (package chromium-headless-shell: the same Blink and V8 as
 * the chromium package, without the desktop browser around them), else Debian's chromium;
 * CHROMIUM_PATH chooses another. The shell is what Playwright itself runs for headless tests, and
 * the 29 browser files took 2 min 22-26 s with it against 3 min 18 s and more with chromium
 * (docs/benchmarks.md, "Browser tests on Chromium's headless shell").
 */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((path) => existsSync(path)) ??
  "/usr/bin/chromium-headless-shell";

/** Chromium headless, with the flags this machine's closed network needs. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Browser tests need Debian's Chromium at ${CHROMIUM} (apt-get install chromium-headless-shell, or chromium)`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Where the kernel's ephemeral range starts: ports it hands to `listen(0)` and outgoing connections. */
function ephemeralLow(): number {
  try {
    return Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
  } catch {
    return 32768;
  }
}

/** Listens on `port` of loopback and closes again: true when nothing else held it. */
async function bindable(port: number): Promise<boolean> {
  const server = createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => resolve(true));
  });
  if (bound) await new Promise((resolve) => server.close(resolve));
  return bound;
}

/** Ports handed out by `freePort`, one file each naming the test process that holds it (per user). */
const RESERVED = path.join(os.tmpdir(), `payments-backend-test-ports-${process.getuid?.() ?? "user"}`);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Claims `port` for this test process, across the test files running beside it: false when a
 * process still running (this one included) holds it. A claim left by a process that ended is
 * taken over.
 */
function reserve(port: number): boolean {
  const file = path.join(RESERVED, String(port));
  try {
    mkdirSync(RESERVED, { recursive: true });
    writeFileSync(file, String(process.pid), { flag: "wx" });
    return true;
  } catch (error) {
    // A folder this process cannot write in: no claim, the port is still tried by binding it.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") return true;
  }
  try {
    // Empty: another process made the file and has not written its id yet. This process's own:
    // handed out already (a test asking for two ports gets two).
    const holder = Number(readFileSync(file, "utf8") || Number.NaN);
    if (Number.isNaN(holder) || holder === process.pid || alive(holder)) return false;
    writeFileSync(file, String(process.pid));
    return true;
  } catch {
    return false;
  }
}

/**
 * A loopback port nothing listens on now, so a test app can know its public URL before it starts.
 * Picked below the kernel's ephemeral range: a port from inside it, freed until the app listens,
 * could meanwhile be taken by another test's `listen(0)` or by any outgoing connection (a test
 * beside it once got its readiness polls, and the app could fail to listen). And claimed for this
 * test process (`reserve`) until it ends: two test files running side by side once picked the same
 * port, each found it free, and the second to listen died with EADDRINUSE while its test waited.
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  const from = Math.min(20_000, low - 1_000);
  for (let tries = 0; tries < 50; tries++) {
    const port = from + Math.floor(Math.random() * (low - from));
    if (reserve(port) && (await bindable(port))) return port;
  }
  throw new Error(`No free loopback port found between ${from} and ${low - 1}`);
}

/** A test app whose PUBLIC_URL is where it listens, as hosted pages and provider redirects need. */
export async function buildServedApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await buildTestApp({ PUBLIC_URL: base, ...env });
  await t.app.listen({ host: "127.0.0.1", port });
  return { t, base };
}
