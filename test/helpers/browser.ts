import { existsSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { type Browser, chromium } from "playwright-core";
import { buildTestApp, type TestApp } from "./app.ts";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Debian's chromium, headless, with the flags this machine's closed network needs. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Browser tests need Debian's chromium at ${CHROMIUM} (apt-get install chromium)`);
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

/** A loopback port nothing listens on now, so a test app can know its public URL before it starts. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
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
