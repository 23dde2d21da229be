import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp, launchBrowser } from "../helpers/browser.ts";

// A marketplace sells a seller's print, as its operator and the seller would do it, through
// public interfaces only: the HTTP API, the seller's KYC widget in Chromium, and the sandbox
// provider's own public transfer view (what Stripe's dashboard and `GET /v1/transfers` show).

let t: TestApp;
let base: string;
let browser: Browser;

before(async () => {
  ({ t, base } = await buildServedApp({ SECRETS_MASTER_KEY: randomBytes(32).toString("base64") }));
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await t?.close();
});

async function api(method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    type: response.headers.get("content-type"),
  };
}

async function expect(answer: Promise<{ status: number; body: any }>, status: number) {
  const { status: got, body } = await answer;
  assert.equal(got, status, JSON.stringify(body));
  return body;
}

async function until<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached in time`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A new operator signs up and makes a marketplace app with a server API key. */
async function marketplace() {
  const unique = randomBytes(4).toString("hex");
  const signup = await expect(
    api("POST", "/auth/signup", undefined, {
      email: `operator${unique}@example.com`,
      password: "correct horse battery staple",
      username: `operator${unique}`,
      first_name: "Olive",
      last_name: "Operator",
    }),
    201,
  );
  const app = await expect(
    api("POST", "/apps", signup.token, {
      name: "Print market",
      type: "marketplace",
      app_fee: 5,
      use_explorer: false,
    }),
    201,
  );
  const key = await expect(api("POST", `/apps/${app.id}/api-keys`, signup.token, { name: "server" }), 201);
  return { appId: app.id as string, apiKey: key.key as string };
}

/** The seller's details form in the widget, as a person fills it in. */
async function fillDetails(page: Page) {
  await page.fill('input[name="first_name"]', "Grace");
  await page.fill('input[name="last_name"]', "Hopper");
  await page.fill('input[name="dob"]', "1980-12-09");
  await page.selectOption('select[name="country"]', "US");
  await page.fill('input[name="address_line1"]', "1 Main Street");
  await page.fill('input[name="city"]', "Arlington");
  await page.fill('input[name="postal_code"]', "22201");
  await page.check('input[name="tos"]');
  await page.click("#details button");
  // The page refreshes itself while the provider job runs, then asks for the document.
  await page.waitForSelector("#document", { timeout: 60_000 });
}

test("a seller onboarded in the widget is paid their share, and a refund takes it back", async () => {
  const { appId, apiKey } = await marketplace();
  const kyc = (
    await expect(
      api("POST", `/apps/${appId}/kycs`, apiKey, {
        identifier: "seller-grace",
        email: "grace@example.com",
        account_type: "custom",
      }),
      201,
    )
  ).data;

  const page = await browser.newPage();
  assert.equal((await page.goto(kyc.widget_url))?.status(), 200);
  await fillDetails(page);
  await page.fill('input[name="account_holder_name"]', "Grace Hopper");
  await page.fill('input[name="routing_number"]', "110000000");
  await page.fill('input[name="account_number"]', "000123456789");
  await page.click("#bank button");
  await page.waitForSelector("#bank-added", { timeout: 60_000 });
  await page.setInputFiles('input[name="document"]', {
    name: "passport.png",
    mimeType: "image/png",
    buffer: Buffer.from("png-bytes"),
  });
  await page.click("#document button");
  await page.waitForSelector('#status[data-status="completed"]', { timeout: 60_000 });
  await page.close();

  const seller = (await expect(api("GET", `/apps/${appId}/kycs/${kyc.id}`, apiKey), 200)).data;
  assert.equal(seller.business_status, "completed");
  assert.equal(seller.payouts_enabled, true);
  assert.match(seller.account_id, /^acct_/);

  const price = await expect(
    api("POST", `/prices/${appId}`, apiKey, {
      name: "Signed print",
      amount: 40,
      currency: "usd",
      kyc_id: kyc.id,
    }),
    201,
  );
  const created = await expect(
    api("POST", `/payments/${appId}`, apiKey, { price_id: price.id, payment_provider: "card" }),
    201,
  );
  await expect(
    api("POST", `/payments/${appId}/${created.id}/confirm`, apiKey, {
      payment_method: { type: "card", number: "4242424242424242", exp_month: 12, exp_year: 2030, cvc: "123" },
    }),
    200,
  );
  const paid = await until(async () => {
    const now = await expect(api("GET", `/payments/${appId}/${created.id}`, apiKey), 200);
    assert.ok(!["failed", "failed-transfers", "cancelled"].includes(now.status), JSON.stringify(now));
    return now.status === "paid" ? now : undefined;
  }, "paid");
  assert.equal(paid.transaction_response.error, null);

  // The seller's share is at the provider, in the seller's account, tagged with the payment.
  const listed = await expect(api("GET", `/sandbox/v1/transfers?transfer_group=${created.id}`), 200);
  assert.equal(listed.object, "list");
  assert.equal(listed.data.length, 1);
  const [transfer] = listed.data;
  assert.equal(transfer.destination, seller.account_id);
  assert.equal(transfer.amount, Math.round(paid.price_item.amount_seller * 100));
  assert.equal(transfer.currency, "usd");
  assert.equal(transfer.metadata.payment_id, created.id);
  assert.equal(transfer.reversed, false);
  const bySeller = await expect(api("GET", `/sandbox/v1/transfers?destination=${seller.account_id}`), 200);
  assert.deepEqual(
    bySeller.data.map((t: { id: string }) => t.id),
    [transfer.id],
  );

  // The shopper is refunded in full; the seller's transfer is reversed in full.
  const refunded = await expect(api("POST", `/payments/${appId}/${created.id}/refund`, apiKey, {}), 200);
  assert.equal(refunded.status, "refunded");
  const reversed = await until(async () => {
    const now = await expect(api("GET", `/sandbox/v1/transfers/${transfer.id}`), 200);
    return now.reversed ? now : undefined;
  }, "transfer reversed");
  assert.equal(reversed.amount_reversed, transfer.amount);
  assert.equal(reversed.reversals.total_count, 1);
  assert.equal(reversed.reversals.data[0].amount, transfer.amount);
  assert.equal(reversed.reversals.data[0].metadata.payment_id, created.id);
  const after = await expect(api("GET", `/payments/${appId}/${created.id}`, apiKey), 200);
  assert.equal(after.status, "refunded");
  assert.equal(after.transaction_response.error, null);
});

test("a seller who has not finished onboarding cannot be paid: 409 seller_not_payable", async () => {
  const { appId, apiKey } = await marketplace();
  const kyc = (
    await expect(
      api("POST", `/apps/${appId}/kycs`, apiKey, { identifier: "seller-halfway", account_type: "custom" }),
      201,
    )
  ).data;
  const page = await browser.newPage();
  await page.goto(kyc.widget_url);
  await page.fill('#details input[name="email"]', "halfway@example.com");
  await fillDetails(page);
  await page.close();
  const price = await expect(
    api("POST", `/prices/${appId}`, apiKey, { name: "Sketch", amount: 15, currency: "usd", kyc_id: kyc.id }),
    201,
  );
  const refused = await api("POST", `/payments/${appId}`, apiKey, {
    price_id: price.id,
    payment_provider: "card",
  });
  assert.equal(refused.status, 409);
  assert.match(String(refused.type), /^application\/problem\+json/);
  assert.equal(refused.body.code, "seller_not_payable");
  assert.match(refused.body.detail, /an identity document/);
  assert.match(refused.body.detail, /a bank account for payouts/);
  const listed = await expect(api("GET", `/payments/${appId}`, apiKey), 200);
  assert.deepEqual(listed, [], "nothing was created");
});
