// The KYC widget on a phone (390 px) and a desktop (1280 px): labelled fields, the status as a badge
// (pending, action needed, verified), a bank account the provider refuses shown as
// failed with its reason, and nothing wider than the window at any step.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp, launchBrowser } from "../helpers/browser.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { createKyc, GOOD_BANK, kycFixture, SELLER_DETAILS } from "../helpers/kyc.ts";
import { fitsWidth, focused, openAt, WIDTHS } from "../helpers/pages.ts";

let t: TestApp;
let f: Awaited<ReturnType<typeof kycFixture>>;
let browser: Browser;
let base: string;

before(async () => {
  ({ t, base } = await buildServedApp({ SECRETS_MASTER_KEY: randomBytes(32).toString("base64") }));
  f = await kycFixture(t);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await t?.close();
});

const badge = (page: Page) => page.textContent("#status .pill");

/** The page refreshes itself while a job runs: waits until it shows `selector` again. */
const settled = (page: Page, selector: string) => page.waitForSelector(selector, { timeout: 30_000 });

async function addBank(page: Page, accountNumber: string) {
  await page.getByLabel("Account holder").fill(GOOD_BANK.account_holder_name);
  await page.getByLabel("Routing number").fill(GOOD_BANK.routing_number);
  await page.getByLabel("Account number").fill(accountNumber);
  await page.click("#bank button");
}

for (const width of WIDTHS) {
  test(`at ${width} px: a seller goes from pending through a refused bank account to verified`, async () => {
    const kyc = expectStatus(
      await createKyc(t, f.app.id, f.apiKey, { identifier: `seller-${width}`, account_type: "custom" }),
      201,
    ).data;
    const { page, response } = await openAt(browser, `${base}/kyc/${kyc.edit_token}`, width);
    const cspViolations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    assert.equal(response?.status(), 200);
    assert.match(String(response?.headers()["content-security-policy"]), /style-src 'sha256-[^']+'/);
    assert.equal(await badge(page), "Pending");
    assert.ok(await fitsWidth(page), "no sideways scrolling");

    await page.keyboard.press("Tab");
    assert.deepEqual(await focused(page), { id: "first_name", outline: "solid 3px" }, "a visible focus ring");

    // Every field is found by its label.
    await page.getByLabel("First name").fill(SELLER_DETAILS.first_name);
    await page.getByLabel("Last name").fill(SELLER_DETAILS.last_name);
    await page.getByLabel("Email").fill(SELLER_DETAILS.email);
    await page.getByLabel("Date of birth").fill(SELLER_DETAILS.dob);
    await page.getByLabel("Country").selectOption("US");
    await page.getByLabel("Address").fill(SELLER_DETAILS.address_line1);
    await page.getByLabel("City").fill(SELLER_DETAILS.city);
    await page.getByLabel("Postal code").fill(SELLER_DETAILS.postal_code);
    await page.getByLabel("I accept the payment provider's terms of service").check();
    await page.click("#details button");
    await settled(page, "#document");
    assert.equal(await badge(page), "Action needed");
    await addBank(page, "000111111116");
    await settled(page, "#provider-errors");
    assert.match(String(await page.textContent("#provider-errors")), /The bank account does not exist/);
    assert.equal(await page.getAttribute("#provider-errors", "class"), "alert alert-danger");
    assert.ok(await fitsWidth(page));

    await addBank(page, GOOD_BANK.account_number);
    await settled(page, "#bank-added");
    await page.getByLabel("A photo or scan of your passport or ID card").setInputFiles({
      name: "passport.png",
      mimeType: "image/png",
      buffer: Buffer.from("png-bytes"),
    });
    await page.click("#document button");
    await settled(page, '#status[data-status="completed"]');
    assert.equal(await badge(page), "Verified");
    assert.match(String(await page.textContent("#status")), /Payments: enabled/);
    assert.match(String(await page.textContent("#status")), /Payouts: enabled/);
    assert.ok(await fitsWidth(page));
    const record = expectStatus(
      await call(t, "GET", `/apps/${f.app.id}/kycs/${kyc.id}`, { token: f.apiKey }),
      200,
    ).data;
    assert.equal(record.business_status, "completed");
    assert.deepEqual(cspViolations, [], "the page needs nothing its CSP forbids");
    await page.context().close();
  });
}
