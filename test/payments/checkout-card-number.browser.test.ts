// The sandbox checkout's card field as a shopper types into it: digits grouped as they come
// (American Express 4-6-5), the brand named beside the field, the caret where it was, and the
// payment still made; with the merchant's name, icon and colour on the page.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp, launchBrowser } from "../helpers/browser.ts";
import { expectAccessible } from "../helpers/dashboard.ts";
import { call, expectStatus, tenantFixture } from "../helpers/http.ts";
import { png, uploadIcon } from "../helpers/images.ts";
import { fitsWidth, openAt, WIDTHS } from "../helpers/pages.ts";
import { createPrice } from "../helpers/prices.ts";

let t: TestApp;
let f: Awaited<ReturnType<typeof tenantFixture>>;
let browser: Browser;
let base: string;

before(async () => {
  ({ t, base } = await buildServedApp());
  f = await tenantFixture(t);
  expectStatus(
    await call(t, "PATCH", `/apps/${f.app.id}`, {
      token: f.owner.token,
      body: { display_name: "Ada's Pottery", accent_color: "#0b7a75" },
    }),
    200,
  );
  expectStatus(await uploadIcon(t, f.owner.token, f.app.id, "image/png", png(32)), 200);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await t?.close();
});

const field = (page: Page) => page.getByLabel("Card number");
const state = (page: Page) =>
  page.evaluate(() => {
    const doc = (globalThis as any).document;
    const input = doc.getElementById("number");
    return {
      value: input.value,
      caret: input.selectionStart,
      brand: doc.getElementById("card-brand").textContent,
    };
  });

/** Types `text` key by key at the caret, as a person does. */
async function typeKeys(page: Page, text: string) {
  await field(page).pressSequentially(text, { delay: 5 });
}

for (const width of WIDTHS) {
  test(`at ${width} px: grouped as typed, brand beside the field, caret kept; then paid`, async () => {
    const price = await createPrice(t, f.owner.token, f.app.id, { name: `Bowl ${width}`, amount: 30 });
    const { page, errors, context } = await openAt(browser, `${base}/checkout/${price.id}`, width);

    // The merchant's face: the icon loaded (the policy lets it in), the name, the colour on the button.
    assert.equal(await page.textContent("#merchant-name"), "Ada's Pottery");
    await page.waitForFunction(
      () => (globalThis as any).document.querySelector("#merchant img")?.naturalWidth > 0,
    );
    const button = await page.$eval(
      "#submit",
      (el) => (globalThis as any).getComputedStyle(el).backgroundColor,
    );
    assert.equal(button, "rgb(11, 122, 117)");

    await typeKeys(page, "42424242");
    assert.deepEqual(await state(page), { value: "4242 4242", caret: 9, brand: "Visa" });
    await expectAccessible(page);
    await typeKeys(page, "42424242");
    assert.deepEqual(await state(page), { value: "4242 4242 4242 4242", caret: 19, brand: "Visa" });
    await typeKeys(page, "999");
    assert.equal((await state(page)).value, "4242 4242 4242 4242 999", "19 digits at most");

    // American Express, 4-6-5 and 15 digits at most; Mastercard and Discover by their ranges.
    for (const [digits, shown, brand] of [
      ["3782822463100059", "3782 822463 10005", "American Express"],
      ["5555555555554444", "5555 5555 5555 4444", "Mastercard"],
      ["2223003122003222", "2223 0031 2200 3222", "Mastercard"],
      ["6011111111111117", "6011 1111 1111 1117", "Discover"],
      ["9999", "9999", ""],
    ]) {
      await field(page).fill("");
      await typeKeys(page, digits);
      assert.deepEqual(await state(page), { value: shown, caret: shown.length, brand }, digits);
    }

    // Typing in the middle keeps the caret after the digit typed, the groups redone behind it.
    await field(page).fill("");
    await typeKeys(page, "42424242");
    await page.keyboard.press("Home");
    for (let i = 0; i < 2; i++) await page.keyboard.press("ArrowRight");
    await page.keyboard.type("9");
    assert.deepEqual(await state(page), { value: "4294 2424 2", caret: 3, brand: "Visa" });
    // Backspace just after a space deletes the digit before it, not only the space.
    await page.keyboard.press("End");
    for (let i = 0; i < 6; i++) await page.keyboard.press("ArrowLeft");
    assert.equal((await state(page)).caret, 5, "just after the first space");
    await page.keyboard.press("Backspace");
    assert.deepEqual(await state(page), { value: "4292 4242", caret: 3, brand: "Visa" });

    // A pasted number with dashes is grouped too, and the shopper pays with it.
    await field(page).fill("4242-4242-4242-4242");
    assert.equal((await state(page)).value, "4242 4242 4242 4242");
    await page.getByLabel("Email (for your receipt)").fill("grouped@example.com");
    await page.getByLabel("Expiry (MM/YY)").fill("12/30");
    await page.getByLabel("CVC").fill("123");
    assert.equal(await fitsWidth(page), true, "nothing wider than the window");
    await page.click("#submit");
    await page.waitForSelector("#message.ok", { timeout: 20_000 });
    assert.match(String(await page.textContent("#message")), /Paid/);
    assert.deepEqual(errors, [], "no script errors and no CSP violations");
    const payments = expectStatus(
      await call(t, "GET", `/payments/${f.app.id}?price_id=${price.id}`, { token: f.owner.token }),
      200,
    );
    assert.equal(payments[0].status, "paid");
    assert.equal(payments[0].shopper_email, "grouped@example.com");
    await context.close();
  });
}

test("a light accent: dark text on its buttons, links in the text colour, axe finds nothing", async () => {
  expectStatus(
    await call(t, "PATCH", `/apps/${f.app.id}`, { token: f.owner.token, body: { accent_color: "#FFD700" } }),
    200,
  );
  const price = await createPrice(t, f.owner.token, f.app.id, { name: "Gold leaf", amount: 5 });
  const { page, errors, context } = await openAt(browser, `${base}/checkout/${price.id}`, 390);
  const colours = await page.$eval("#submit", (el) => {
    const style = (globalThis as any).getComputedStyle(el);
    return [style.backgroundColor, style.color];
  });
  assert.deepEqual(colours, ["rgb(255, 215, 0)", "rgb(29, 35, 48)"]);
  await typeKeys(page, "371449635398431");
  assert.equal((await state(page)).brand, "American Express");
  await expectAccessible(page);
  assert.deepEqual(errors, []);
  await context.close();
});
