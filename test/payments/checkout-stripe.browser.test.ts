import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp, launchBrowser } from "../helpers/browser.ts";
import { call, expectStatus, tenantFixture } from "../helpers/http.ts";
import { CARDS } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { StripeStandIn } from "../helpers/stripe-stand-in.ts";

/**
 * The hosted checkout with the Stripe provider: the page loads Stripe.js (a loopback stand-in that
 * plays js.stripe.com and api.stripe.com, test/helpers/stripe-js-stand-in.ts), the card goes into
 * Stripe's card Element and becomes a pm_… there, and the app confirms the PaymentIntent with it.
 */
const SECRET_KEY = "sk_test_checkoutstandin";
const PUBLISHABLE_KEY = "pk_test_checkoutstandin";

const stand = new StripeStandIn();
const savedEnv = { ...process.env };
let t: TestApp;
let f: Awaited<ReturnType<typeof tenantFixture>>;
let browser: Browser;
let base: string;
let price: any;

before(async () => {
  const port = await stand.start();
  ({ t, base } = await buildServedApp({
    // Seller onboarding would follow the payments provider; it is not what this file tests.
    KYC_PROVIDER: "sandbox",
    PAYMENTS_PROVIDER: "stripe",
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: "whsec_checkoutstandin",
    STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
    STRIPE_JS_URL: `${stand.origin}/v3/`,
    STRIPE_API_HOST: "127.0.0.1",
    STRIPE_API_PORT: String(port),
    STRIPE_API_PROTOCOL: "http",
  }));
  f = await tenantFixture(t);
  price = await createPrice(t, f.owner.token, f.app.id, {
    name: "Concert ticket",
    amount: 25,
    currency: "usd",
  });
  browser = await launchBrowser();
});

after(async () => {
  process.env = savedEnv;
  await browser?.close();
  await t?.close();
  await stand.stop();
});

/** A page that records script errors and CSP violations (chromium reports both on the console). */
async function openCheckout() {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  const response = await page.goto(`${base}/checkout/${price.id}`);
  return { page, errors, response };
}

async function typeCard(page: Page, number: string, exp = "12/30") {
  const card = page.frameLocator("#card-element iframe");
  await card.locator('[name="cardnumber"]').fill(number);
  await card.locator('[name="exp-date"]').fill(exp);
  await card.locator('[name="cvc"]').fill("123");
}

async function payWithCard(page: Page, number: string, exp?: string) {
  await page.fill("#email", "shopper@example.com");
  await typeCard(page, number, exp);
  await page.click("#submit");
}

/**
 * Waits for the page's final message. Jobs run on a shared, sometimes busy machine: the wait is
 * generous, and a timeout says what the page and the payment were showing.
 */
async function outcome(page: Page, kind: "ok" | "error") {
  try {
    await page.waitForSelector(`#message.${kind}`, { timeout: 60_000 });
  } catch (error) {
    const [latest] = await listPayments();
    throw new Error(
      `no ${kind} message; the page says "${await page.textContent("#message")}", ` +
        `the latest payment is ${latest?.status} (${(error as Error).message})`,
    );
  }
}

const listPayments = async () =>
  expectStatus(
    await call(t, "GET", `/payments/${f.app.id}?price_id=${price.id}`, { token: f.owner.token }),
    200,
  );

test("the page mounts Stripe's card Element, not raw card inputs, and the CSP names the Stripe.js origin", async () => {
  const { page, errors, response } = await openCheckout();
  const policy = String(response?.headers()["content-security-policy"]);
  const directive = (name: string) => policy.split("; ").find((d) => d.startsWith(`${name} `)) ?? "";
  assert.match(directive("script-src"), new RegExp(`^script-src 'nonce-[^']+' ${stand.origin}$`));
  assert.equal(directive("frame-src"), `frame-src ${stand.origin}`);
  assert.equal(directive("connect-src"), `connect-src 'self' ${stand.origin}`);
  assert.equal(directive("default-src"), "default-src 'none'");
  await page.frameLocator("#card-element iframe").locator('[name="cardnumber"]').waitFor();
  assert.equal(await page.locator("#number, #exp, #cvc, #routing, #account").count(), 0, "no raw inputs");
  assert.equal(await page.locator("option[value=us_bank_account]").count(), 0, "no bank debit with Stripe");
  const html = await page.content();
  assert.ok(html.includes(PUBLISHABLE_KEY), "the publishable key is in the page");
  assert.ok(!html.includes(SECRET_KEY), "the secret key never is");
  assert.deepEqual(errors, [], "no script errors and no CSP violations");
  await page.close();
});

test("a 4242 card becomes a Stripe.js payment method and the payment ends paid", async () => {
  const { page, errors } = await openCheckout();
  await payWithCard(page, CARDS.ok);
  await outcome(page, "ok");
  assert.match(String(await page.textContent("#message")), /Paid/);
  assert.deepEqual(errors, [], "no script errors and no CSP violations");

  const made = stand.seen.filter((r) => r.path === "/v1/payment_methods");
  assert.equal(made.length, 1);
  assert.equal(
    made[0].headers.authorization,
    `Bearer ${PUBLISHABLE_KEY}`,
    "Stripe.js used the publishable key",
  );
  assert.equal(made[0].form.get("billing_details[email]"), "shopper@example.com");
  const pm = [...stand.paymentMethods.keys()].at(-1)!;
  // The intent is made and confirmed in one request (`confirm=true` on the create).
  const confirm = stand.seen.find(
    (r) =>
      r.path === "/v1/payment_intents" &&
      r.form.get("confirm") === "true" &&
      r.form.get("payment_method") === pm,
  );
  assert.ok(confirm, "the intent was made and confirmed with the page's payment method");
  assert.equal(confirm.headers.authorization, `Bearer ${SECRET_KEY}`);
  assert.match(String(confirm.form.get("return_url")), new RegExp(`/checkout/${price.id}$`));
  const [payment] = await listPayments();
  assert.equal(payment.status, "paid");
  assert.equal(payment.shopper_email, "shopper@example.com");
  // Nothing stands between this payment's hold and its capture: the confirm charged the card itself.
  assert.equal(confirm.form.get("capture_method"), "automatic");
  const intent = [...stand.intents.values()].find((i) => i.metadata.payment_id === payment.id);
  assert.equal(intent?.amount_received, intent?.amount, "charged in full");
  assert.ok(
    !stand.seen.some((r) => r.path === `/v1/payment_intents/${intent?.id}/capture`),
    "no capture asked",
  );
  await page.close();
});

test("a declined card shows a clear message; the next card pays the same payment", async () => {
  const before = (await listPayments()).length;
  const { page } = await openCheckout();
  await payWithCard(page, CARDS.declined);
  await outcome(page, "error");
  assert.match(String(await page.textContent("#message")), /declined/i);
  assert.equal(await page.isVisible("#pay"), true, "the form is back");
  const [waiting] = await listPayments();
  assert.equal(waiting.status, "pending", "the payment waits for another card");
  await typeCard(page, CARDS.ok);
  await page.click("#submit");
  await outcome(page, "ok");
  const after = await listPayments();
  assert.equal(after.length, before + 1, "one payment for both tries");
  assert.equal(after[0].id, waiting.id);
  assert.equal(after[0].status, "paid");
  await page.close();
});

test("a card Stripe.js refuses is reported at once and opens no payment", async () => {
  const before = (await listPayments()).length;
  const { page } = await openCheckout();
  await payWithCard(page, "4242424242424241");
  await outcome(page, "error");
  assert.match(String(await page.textContent("#message")), /card number is invalid/i);
  assert.equal(await page.isEnabled("#submit"), true);
  assert.equal((await listPayments()).length, before);
  await page.close();
});

test("a 3-D Secure card goes through the issuer's page and comes back paid", async () => {
  const { page } = await openCheckout();
  await payWithCard(page, CARDS.threeDS);
  await page.waitForURL(new RegExp(`^${stand.origin}/3ds/`), { timeout: 60_000 });
  await page.click("#pass");
  await page.waitForURL(/\/checkout\/.*payment_intent=/, { timeout: 60_000 });
  await outcome(page, "ok");
  const [payment] = await listPayments();
  assert.equal(payment.status, "paid");
  await page.close();
});

test("a failed 3-D Secure step leaves the payment waiting and the form comes back", async () => {
  const { page } = await openCheckout();
  await payWithCard(page, CARDS.threeDS);
  await page.waitForURL(new RegExp(`^${stand.origin}/3ds/`), { timeout: 60_000 });
  await page.click("#fail");
  await outcome(page, "error");
  assert.match(String(await page.textContent("#message")), /unable to authenticate/i);
  assert.equal(await page.isVisible("#pay"), true);
  const [payment] = await listPayments();
  assert.equal(payment.status, "pending", "another card can still pay it");
  await page.close();
});

test("raw card numbers are refused by the checkout API with Stripe", async () => {
  const created = expectStatus(
    await call(t, "POST", `/checkout/${price.id}/payments`, {
      body: { email: "raw@example.com", payment_provider: "card" },
    }),
    201,
  );
  const answer = await call(t, "POST", `/checkout/${price.id}/payments/${created.id}/confirm`, {
    headers: { "x-payment-token": created.payment_token },
    body: { payment_method: { type: "card", number: CARDS.ok, exp_month: 12, exp_year: 2030, cvc: "123" } },
  });
  expectStatus(answer, 400);
  assert.equal(answer.body.errors[0].path, "/body/payment_method/type");
});
