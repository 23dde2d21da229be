import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp, launchBrowser } from "../helpers/browser.ts";
import { call, expectStatus, tenantFixture } from "../helpers/http.ts";
import { CARDS } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

let t: TestApp;
let f: Awaited<ReturnType<typeof tenantFixture>>;
let browser: Browser;
let base: string;
let price: any;

before(async () => {
  ({ t, base } = await buildServedApp());
  f = await tenantFixture(t);
  price = await createPrice(t, f.owner.token, f.app.id, {
    name: "Concert ticket",
    amount: 25,
    currency: "usd",
  });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await t?.close();
});

async function payWithCard(page: Page, number: string) {
  await page.fill("#email", "shopper@example.com");
  await page.fill("#number", number);
  await page.fill("#exp", "12/30");
  await page.fill("#cvc", "123");
  await page.click("#submit");
}

test("a 4242 card ends paid, and the view was counted", async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  const response = await page.goto(`${base}/checkout/${price.id}`);
  assert.match(String(response?.headers()["content-security-policy"]), /default-src 'none'/);
  assert.equal(await page.textContent("h1"), "Concert ticket");
  await payWithCard(page, CARDS.ok);
  await page.waitForSelector("#message.ok", { timeout: 20_000 });
  assert.match(String(await page.textContent("#message")), /Paid/);
  assert.deepEqual(errors, [], "no script errors and no CSP violations");
  const payments = expectStatus(
    await call(t, "GET", `/payments/${f.app.id}?price_id=${price.id}`, { token: f.owner.token }),
    200,
  );
  assert.equal(payments[0].status, "paid");
  assert.equal(payments[0].shopper_email, "shopper@example.com");
  const read = expectStatus(
    await call(t, "GET", `/prices/${f.app.id}/${price.id}`, { token: f.owner.token }),
    200,
  );
  assert.ok(read.views >= 1);
  await page.close();
});

test("a declined card shows a clear message and the price stays payable", async () => {
  const page = await browser.newPage();
  await page.goto(`${base}/checkout/${price.id}`);
  await payWithCard(page, CARDS.declined);
  await page.waitForSelector("#message.error", { timeout: 20_000 });
  assert.match(String(await page.textContent("#message")), /declined/i);
  assert.equal(await page.isVisible("#pay"), true, "the form is back");
  await page.fill("#number", CARDS.ok);
  await page.click("#submit");
  await page.waitForSelector("#message.ok", { timeout: 20_000 });
  await page.close();
});

test("a 3-D Secure card goes through the challenge and comes back paid", async () => {
  const page = await browser.newPage();
  await page.goto(`${base}/checkout/${price.id}`);
  await payWithCard(page, CARDS.threeDS);
  await page.waitForURL(/\/sandbox\/3ds\//, { timeout: 20_000 });
  await page.click("#pass");
  await page.waitForURL(/\/checkout\/.*payment_intent=/, { timeout: 20_000 });
  await page.waitForSelector("#message.ok", { timeout: 20_000 });
  await page.close();
});
