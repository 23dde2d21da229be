import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
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

/**
 * A loopback port nothing listens on now, so a test app can know its public URL before it starts.
 * Picked below the kernel's ephemeral range: a port from inside it, freed until the app listens,
 * could meanwhile be taken by another test's `listen(0)` or by any outgoing connection (a test
 * beside it once got its readiness polls, and the app could fail to listen).
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  const from = Math.min(20_000, low - 1_000);
  for (let tries = 0; tries < 50; tries++) {
    const port = from + Math.floor(Math.random() * (low - from));
    if (await bindable(port)) return port;
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
