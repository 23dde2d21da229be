// The hosted checkout on a phone (390 px) and a desktop (1280 px): the amounts formatted per
// currency (cents for dollars and euros, only the digits a chain
// currency has), a declined card read as failed, then a good card
// through pending to paid with its receipt, and nothing wider than the window.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp, launchBrowser } from "../helpers/browser.ts";
import { call, expectStatus, tenantFixture } from "../helpers/http.ts";
import { fitsWidth, focused, openAt, WIDTHS } from "../helpers/pages.ts";
import { CARDS } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

let t: TestApp;
let f: Awaited<ReturnType<typeof tenantFixture>>;
let browser: Browser;
let base: string;

before(async () => {
  ({ t, base } = await buildServedApp());
  f = await tenantFixture(t);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await t?.close();
});

async function payWithCard(page: Page, number: string) {
  await page.getByLabel("Email (for your receipt)").fill("shopper@example.com");
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("CVC").fill("123");
  await page.click("#submit");
}

/** Every badge the payment showed, in order, from now on. */
async function recordBadges(page: Page) {
  await page.evaluate(() => {
    const doc = (globalThis as any).document;
    const seen: string[] = [];
    (globalThis as any).badgesSeen = seen;
    const el = doc.getElementById("payment-status");
    new (globalThis as any).MutationObserver(() => seen.push(el.textContent)).observe(el, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  return () => page.evaluate(() => (globalThis as any).badgesSeen as string[]);
}

for (const width of WIDTHS) {
  test(`at ${width} px: dollars with cents, a declined card fails, a good one goes pending to paid`, async () => {
    const price = await createPrice(t, f.owner.token, f.app.id, { name: `Ticket ${width}`, amount: 25 });
    const quote = expectStatus(await call(t, "GET", `/checkout/${price.id}/quote`), 200);
    const { page, errors } = await openAt(browser, `${base}/checkout/${price.id}`, width);
    assert.equal(await page.textContent("#quote-price"), "$25.00");
    assert.match(quote.total, /^\$\d+\.\d\d$/);
    assert.equal(await page.textContent("#quote-total"), quote.total);
    assert.equal(await page.textContent("#submit"), `Pay ${quote.total}`);
    assert.ok(await fitsWidth(page), "no sideways scrolling");
    // The keyboard reaches the first field, and its focus ring shows.
    await page.keyboard.press("Tab");
    assert.deepEqual(await focused(page), { id: "email", outline: "solid 3px" });

    await payWithCard(page, CARDS.declined);
    await page.waitForSelector("#message.error", { timeout: 20_000 });
    assert.match(String(await page.textContent("#message")), /declined/i);
    assert.match(String(await page.textContent("#number-error")), /declined/i);
    assert.equal(await page.isVisible("#pay"), true, "the form is back for another card");
    assert.ok(await fitsWidth(page));

    const badges = await recordBadges(page);
    await page.getByLabel("Card number").fill(CARDS.ok);
    await page.click("#submit");
    await page.waitForSelector("#message.ok", { timeout: 20_000 });
    assert.equal(await page.textContent("#message"), "Paid. Thank you!");
    assert.equal(await page.textContent("#payment-status"), "Paid");
    const seen = await badges();
    assert.equal(seen[0], "Pending", "pending before paid");
    assert.equal(seen[seen.length - 1], "Paid");
    assert.equal(await page.isVisible("#receipt"), true);
    assert.equal(await page.textContent("#receipt-total"), quote.total);
    assert.equal(await page.textContent("#receipt-email"), "shopper@example.com");
    assert.ok(await fitsWidth(page));
    assert.deepEqual(
      errors.filter((e) => !/status of 4\d\d/.test(e)),
      [],
      "no script errors, no CSP violations",
    );
    await page.context().close();
  });

  test(`at ${width} px: euro and NEAR prices read in their own currency, charged in dollars`, async () => {
    for (const [body, shown] of [
      [{ amount: 12.5, currency: "eur" }, "€12.50"],
      [{ amount: 2.5, currency: "near" }, "2.5 NEAR"],
    ] as const) {
      const price = await createPrice(t, f.owner.token, f.app.id, { name: "Print", ...body });
      const { page } = await openAt(browser, `${base}/checkout/${price.id}`, width);
      assert.equal(await page.textContent("#quote-price"), shown);
      assert.equal(await page.isVisible("#quote-converted-row"), true);
      assert.match(String(await page.textContent("#quote-converted")), /^\$\d+\.\d\d$/);
      assert.ok(await fitsWidth(page));
      await page.context().close();
    }
  });
}
