// The hosted checkout after the contract call failed (a sandbox revert): the shopper reads plainly
// that their card was not charged (the hold was released) and can try again on the same page,
// which then pays.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser } from "playwright-core";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp, launchBrowser } from "../helpers/browser.ts";
import { call, expectStatus, tenantFixture } from "../helpers/http.ts";
import { openAt } from "../helpers/pages.ts";
import { CARDS } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { evmTrigger } from "../helpers/triggers.ts";
import { newMasterKey } from "../helpers/wallets.ts";

let t: TestApp;
let f: Awaited<ReturnType<typeof tenantFixture>>;
let browser: Browser;
let base: string;

before(async () => {
  ({ t, base } = await buildServedApp({
    SECRETS_MASTER_KEY: newMasterKey(),
    EVM_TESTNET_CONFIRMATIONS: "1",
    EVM_TESTNET_BLOCK_SECONDS: "1",
  }));
  f = await tenantFixture(t);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await t?.close();
});

test("a reverted call: 'your card was not charged', and trying again pays", async () => {
  const wallet = expectStatus(
    await call(t, "POST", `/wallets/${f.app.id}`, {
      token: f.owner.token,
      body: { name: "Minter", type: "evm" },
    }),
    201,
  );
  const trigger = expectStatus(
    await call(t, "POST", `/triggers/${f.app.id}`, { token: f.owner.token, body: evmTrigger(wallet.id) }),
    201,
  );
  const price = await createPrice(t, f.owner.token, f.app.id, {
    amount: 12,
    trigger_id: trigger.id,
    chain: "evm",
  });
  const { page } = await openAt(browser, `${base}/checkout/${price.id}`, 1280);
  await page.getByLabel("Email (for your receipt)").fill("shopper@example.com");
  await page.fill("#param-receiver", "0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
  await page.fill("#param-quantity", "1");
  await page.fill("#param-order_id", "sandbox:revert");
  await page.getByLabel("Card number").fill(CARDS.ok);
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.click("#submit");

  await page.waitForSelector("#message.error", { timeout: 30_000 });
  const message = String(await page.textContent("#message"));
  assert.match(message, /could not be completed/);
  assert.match(message, /your card was not charged/);
  assert.match(message, /try again/i);
  assert.equal(await page.textContent("#payment-status"), "Not charged");
  assert.equal(await page.isVisible("#pay"), true, "the form is back");
  assert.equal(await page.textContent("#submit"), "Try again");

  await page.fill("#param-order_id", "A-2");
  await page.click("#submit");
  await page.waitForSelector("#message.ok", { timeout: 30_000 });
  assert.equal(await page.textContent("#message"), "Paid. Thank you!");
});
