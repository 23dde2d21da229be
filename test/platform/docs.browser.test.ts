import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp, launchBrowser } from "../helpers/browser.ts";

// The API documentation under its Content-Security-Policy: Swagger UI must still render every
// operation, with nothing the policy blocks, and the page must refuse to be framed.
let t: TestApp;
let base: string;
let browser: Browser;

before(async () => {
  ({ t, base } = await buildServedApp());
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await t?.close();
});

test("Swagger UI renders under its CSP, with no violation", async () => {
  const page = await (await browser.newContext()).newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
  await page.goto(`${base}/docs`);
  await page.waitForSelector(".opblock-summary-path", { timeout: 20_000 });
  assert.ok((await page.locator(".opblock").count()) > 50, "the operations are listed");
  assert.deepEqual(problems, []);
});

test("the documentation cannot be framed", async () => {
  // Another origin frames the documentation and, as a control, an endpoint without frame rules.
  const framer = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" });
    response.end(`<iframe src="${base}/docs/"></iframe><iframe src="${base}/health"></iframe>`);
  });
  await new Promise<void>((resolve) => framer.listen(0, "127.0.0.1", resolve));
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`http://localhost:${(framer.address() as AddressInfo).port}/`);
    const deadline = Date.now() + 10_000;
    const urls = () => page.frames().map((frame) => frame.url());
    while (!urls().includes(`${base}/health`) && Date.now() < deadline) await page.waitForTimeout(100);
    await page.waitForTimeout(500);
    assert.ok(urls().includes(`${base}/health`), `the control frame loads: ${urls().join(", ")}`);
    assert.ok(!urls().some((url) => url.startsWith(`${base}/docs`)), `docs refused: ${urls().join(", ")}`);
    assert.ok(
      urls().some((url) => url.startsWith("chrome-error:")),
      "the browser shows its refusal instead",
    );
  } finally {
    framer.close();
  }
});
