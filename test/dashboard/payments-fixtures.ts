import type { Page } from "playwright-core";
import type { TestApp } from "../helpers/app.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { CARDS, card } from "../helpers/payments.ts";
import { evmTrigger } from "../helpers/triggers.ts";

/**
 * What the prices, payments and webhooks browser tests share: the signed-in owner's token (read
 * from the dashboard's own session, as the page holds it), records the page under test does not
 * create itself, made through the API, and payments paid as shoppers pay them.
 */

/** The session token the dashboard signed in with. */
export async function sessionToken(page: Page): Promise<string> {
  const stored = await page.evaluate(() => sessionStorage.getItem("payments-dashboard.session"));
  if (!stored) throw new Error("the dashboard holds no session");
  return (JSON.parse(stored) as { token: string }).token;
}

/** Picks `option` in the Mantine select labelled `label`. */
export async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole("textbox", { name: label, exact: true }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

/** An EVM wallet and a contract-call trigger of the app (the trigger builder is tested elsewhere). */
export async function createTrigger(t: TestApp, token: string, appId: string) {
  const wallet = expectStatus(
    await call(t, "POST", `/wallets/${appId}`, { token, body: { name: "Minter", type: "evm" } }),
    201,
  );
  return expectStatus(
    await call(t, "POST", `/triggers/${appId}`, { token, body: evmTrigger(wallet.id) }),
    201,
  );
}

/** A seller KYC record of the app. */
export async function createSeller(t: TestApp, token: string, appId: string, identifier: string) {
  const answer = await call(t, "POST", `/apps/${appId}/kycs`, { token, body: { identifier } });
  return expectStatus(answer, 201).data as { id: string; identifier: string };
}

export async function createPrice(t: TestApp, token: string, appId: string, body: Record<string, unknown>) {
  return expectStatus(
    await call(t, "POST", `/prices/${appId}`, {
      token,
      body: { name: "Concert ticket", amount: 25, currency: "usd", ...body },
    }),
    201,
  );
}

/** Opens a payment of the price through the API, as an app's server does. */
export async function openPayment(
  t: TestApp,
  token: string,
  appId: string,
  body: Record<string, unknown>,
): Promise<{ id: string }> {
  return expectStatus(
    await call(t, "POST", `/payments/${appId}`, { token, body: { payment_provider: "card", ...body } }),
    201,
  );
}

/** Pays an open payment with the sandbox's 4242 card through the API. */
export async function payWith4242(t: TestApp, token: string, appId: string, paymentId: string) {
  expectStatus(
    await call(t, "POST", `/payments/${appId}/${paymentId}/confirm`, {
      token,
      body: { payment_method: card(CARDS.ok) },
    }),
    200,
  );
}

/** A shopper pays the price on the real hosted checkout with the 4242 card. */
export async function payOnCheckout(page: Page, base: string, priceId: string, email: string) {
  await page.goto(`${base}/checkout/${priceId}`);
  await page.fill("#email", email);
  await page.fill("#number", CARDS.ok);
  await page.fill("#exp", "12/30");
  await page.fill("#cvc", "123");
  await page.click("#submit");
  await page.waitForSelector("#message.ok", { timeout: 20_000 });
}

/**
 * Whether the page fits `width` without a horizontal scroll bar, once its layout has settled (a
 * resize, a closing modal or a notification's transition can take a few frames).
 */
export async function fitsWidth(page: Page, width: number): Promise<boolean> {
  for (let tries = 0; tries < 20; tries++) {
    // A string, evaluated in the page: the tests are type-checked without the DOM library.
    if (await page.evaluate<boolean>(`document.documentElement.scrollWidth <= ${width}`)) return true;
    await page.waitForTimeout(100);
  }
  return false;
}
