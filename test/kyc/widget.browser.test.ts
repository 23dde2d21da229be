import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import type { Browser } from "playwright-core";
import { launchBrowser } from "../helpers/browser.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { createKyc, GOOD_BANK, kycFixture, SELLER_DETAILS } from "../helpers/kyc.ts";

let tenant: Awaited<ReturnType<typeof kycFixture>>;
let browser: Browser;
let base: string;
let shop: Server;
let shopUrl: string;

const fx = useTestApp(
  { SECRETS_MASTER_KEY: randomBytes(32).toString("base64") },
  {
    tenants: false,
    async setUp() {
      tenant = await kycFixture(fx.app);
      await fx.app.app.listen({ host: "127.0.0.1", port: 0 });
      base = `http://127.0.0.1:${(fx.app.app.server.address() as AddressInfo).port}`;
      // The marketplace's own page the seller returns to.
      shop = createServer((_req, res) => res.end("<!doctype html><title>Shop</title><h1>Welcome back</h1>"));
      await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
      shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/sellers/done`;
      expectStatus(
        await call(fx.app, "PATCH", `/apps/${tenant.app.id}`, {
          token: tenant.owner.token,
          body: { kyc_return_url: shopUrl },
        }),
        200,
      );
      browser = await launchBrowser();
    },
    async tearDown() {
      await browser?.close();
      await new Promise((resolve) => shop?.close(resolve));
    },
  },
);

test("a seller completes onboarding in the browser; the record reads completed", async () => {
  const kyc = expectStatus(
    await createKyc(fx.app, tenant.app.id, tenant.apiKey, {
      identifier: "browser-seller",
      email: "grace@example.com",
      account_type: "custom",
    }),
    201,
  ).data;
  const page = await browser.newPage();
  const cspViolations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  const response = await page.goto(`${base}/kyc/${kyc.edit_token}`);
  assert.equal(response?.status(), 200);
  assert.equal(await page.inputValue('#details input[name="email"]'), "grace@example.com");
  assert.match((await page.textContent("#missing")) ?? "", /A bank account for payouts/);

  await page.fill('input[name="first_name"]', SELLER_DETAILS.first_name);
  await page.fill('input[name="last_name"]', SELLER_DETAILS.last_name);
  await page.fill('input[name="dob"]', SELLER_DETAILS.dob);
  await page.selectOption('select[name="country"]', "US");
  await page.fill('input[name="address_line1"]', SELLER_DETAILS.address_line1);
  await page.fill('input[name="city"]', SELLER_DETAILS.city);
  await page.fill('input[name="postal_code"]', SELLER_DETAILS.postal_code);
  await page.check('input[name="tos"]');
  await page.click("#details button");

  // The page refreshes itself while the provider job runs, then asks for the document.
  await page.waitForSelector("#document", { timeout: 30_000 });
  assert.match((await page.textContent("#missing")) ?? "", /An identity document/);
  await page.fill('input[name="account_holder_name"]', GOOD_BANK.account_holder_name);
  await page.fill('input[name="routing_number"]', GOOD_BANK.routing_number);
  await page.fill('input[name="account_number"]', GOOD_BANK.account_number);
  await page.click("#bank button");
  await page.waitForSelector("#bank-added", { timeout: 30_000 });
  assert.match((await page.textContent("#bank-added")) ?? "", /6789/);

  await page.setInputFiles('input[name="document"]', {
    name: "passport.png",
    mimeType: "image/png",
    buffer: Buffer.from("png-bytes"),
  });
  await page.click("#document button");
  await page.waitForSelector('#status[data-status="completed"]', { timeout: 30_000 });

  const record = expectStatus(
    await call(fx.app, "GET", `/apps/${tenant.app.id}/kycs/${kyc.id}`, { token: tenant.apiKey }),
    200,
  ).data;
  assert.equal(record.business_status, "completed");
  assert.equal(record.charges_enabled, true);
  assert.equal(record.payouts_enabled, true);

  await page.click("#return");
  await page.waitForURL(/\/sellers\/done/);
  const back = new URL(page.url());
  assert.equal(back.searchParams.get("kyc_id"), kyc.id);
  assert.equal(back.searchParams.get("business_status"), "completed");
  assert.equal(await page.textContent("h1"), "Welcome back");
  assert.deepEqual(cspViolations, [], "the page needs nothing its CSP forbids");
  await page.close();
});

test("a refreshed token makes the old page link fail", async () => {
  const kyc = expectStatus(
    await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier: "browser-refresh" }),
    201,
  ).data;
  const page = await browser.newPage();
  const oldLink = `${base}/kyc/${kyc.edit_token}`;
  assert.equal((await page.goto(oldLink))?.status(), 200);
  const refreshed = expectStatus(
    await call(fx.app, "PATCH", `/apps/${tenant.app.id}/kycs/${kyc.id}/refresh-token`, {
      token: tenant.apiKey,
    }),
    200,
  ).data;
  // A form still open on the old page is refused too.
  await page.fill('input[name="first_name"]', "Late");
  await page.fill('input[name="last_name"]', "Submitter");
  await page.fill('input[name="dob"]', SELLER_DETAILS.dob);
  await page.fill('input[name="address_line1"]', SELLER_DETAILS.address_line1);
  await page.fill('input[name="city"]', SELLER_DETAILS.city);
  await page.fill('input[name="postal_code"]', SELLER_DETAILS.postal_code);
  await page.fill('#details input[name="email"]', SELLER_DETAILS.email);
  await page.check('input[name="tos"]');
  const [submitted] = await Promise.all([page.waitForNavigation(), page.click("#details button")]);
  assert.equal(submitted?.status(), 404);
  const record = expectStatus(
    await call(fx.app, "GET", `/apps/${tenant.app.id}/kycs/${kyc.id}`, { token: tenant.apiKey }),
    200,
  ).data;
  assert.equal(record.details_submitted, false);
  assert.equal(record.email, null);

  const reloaded = await page.goto(oldLink);
  assert.equal(reloaded?.status(), 404);
  assert.match((await page.textContent("body")) ?? "", /not valid any more/);
  assert.equal(await page.locator("form").count(), 0);
  assert.equal((await page.goto(`${base}/kyc/${refreshed.edit_token}`))?.status(), 200);
  await page.close();
});
