// The public auction page as a bidder sees it, on a phone (390 px) and a desktop (1280 px): amounts
// formatted per currency, the end in the viewer's own time zone with a live countdown, and each of
// the bidder's states (pending, leading, outbid, not accepted, won) read from the page itself.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../helpers/app.ts";
import { createAuction, endAuctionNow, mailedCode } from "../helpers/auctions.ts";
import { buildServedApp, launchBrowser } from "../helpers/browser.ts";
import { tenantFixture } from "../helpers/http.ts";
import { fitsWidth, openAt, textIs, WIDTHS } from "../helpers/pages.ts";
import { CARDS } from "../helpers/payments.ts";

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

async function signIn(page: Page, email: string) {
  const before = t.mailer.to(email).length;
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.click("#send-code");
  await page.getByLabel("Code from the email").fill(await mailedCode(t, email, before));
  await page.click("#sign-in");
  await page.waitForSelector("#bidding:not([hidden])");
}

async function bid(page: Page, amount: string, card = CARDS.ok) {
  await page.getByLabel("Your bid (USD)").fill(amount);
  await page.getByLabel("Card number").fill(card);
  await page.click("#bid");
}

/** Every text `#standing` showed, in order, from now on (a MutationObserver in the page). */
async function recordStanding(page: Page) {
  await page.evaluate(() => {
    const doc = (globalThis as any).document;
    const seen: string[] = [];
    (globalThis as any).standingSeen = seen;
    const el = doc.getElementById("standing");
    new (globalThis as any).MutationObserver(() => seen.push(el.textContent)).observe(el, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  return () => page.evaluate(() => (globalThis as any).standingSeen as string[]);
}

const TIME_ZONE = "Asia/Tokyo";

for (const width of WIDTHS) {
  test(`at ${width} px: a bidder sees pending, leading, outbid, not accepted and won, in dollars and local time`, async () => {
    // Ten minutes ahead, ended by its owner once the bids stand: on a loaded CI machine (ten test
    // processes on two cores) sign-ins and bids have outlasted a fixed 45 s end.
    const endsAt = new Date(Date.now() + 600_000);
    endsAt.setMilliseconds(0);
    const auction = await createAuction(t, f.owner.token, f.app.id, {
      name: `Poster ${width}`,
      amount: 10,
      ends_at: endsAt.toISOString(),
    });
    const url = `${base}/a/${auction.id}`;
    const first = await openAt(browser, url, width, TIME_ZONE);
    const second = await openAt(browser, url, width, TIME_ZONE);
    const page = first.page;

    await textIs(page, "current", "No bids yet · starts at $10.00");
    assert.equal(await page.textContent("#minimum"), "$10.00");
    // The end in the viewer's zone (Tokyo here), not the server's UTC text.
    const local = endsAt.toLocaleString("en-US", {
      timeZone: TIME_ZONE,
      dateStyle: "medium",
      timeStyle: "short",
    });
    assert.equal(await page.textContent("#ends"), local);
    assert.equal(await page.getAttribute("#ends", "datetime"), endsAt.toISOString());
    const countdown = String(await page.textContent("#countdown"));
    assert.match(countdown, /^Ends in \d+ min \d\d s$/);
    await page.waitForFunction((before) => {
      const text = (globalThis as any).document.getElementById("countdown").textContent;
      return text !== before && /^Ends in \d+ min \d\d s$/.test(text);
    }, countdown);
    assert.equal(await page.textContent("#state"), "Open");
    assert.ok(await fitsWidth(page), "no sideways scrolling");

    await signIn(page, `first-${width}@example.com`);
    assert.ok(await fitsWidth(page));
    const seen = await recordStanding(page);
    await bid(page, "10");
    await textIs(page, "standing", "You are the highest bidder");
    assert.equal(await page.textContent("#standing-pill"), "Leading");
    const history = await seen();
    assert.equal(history[0], "Your bid of $10.00 is waiting for the card hold", "pending first");
    assert.ok(!history.slice(1).some((text) => /waiting/.test(text)), "no stale pending once placed");
    assert.equal(await page.textContent("#current"), "$10.00");
    assert.equal(await page.textContent("#minimum"), "$11.00");
    assert.equal(await page.textContent("#bids li strong"), "$10.00");
    assert.equal(await page.textContent("#bids li .bidder"), "You");

    await signIn(second.page, `second-${width}@example.com`);
    await bid(second.page, "15.5");
    await textIs(second.page, "standing", "You are the highest bidder");
    await textIs(page, "standing", "You have been outbid");
    assert.equal(await page.textContent("#standing-pill"), "Outbid");
    assert.equal(await page.textContent("#current"), "$15.50");

    await bid(page, "20", CARDS.declined);
    await page.waitForFunction(
      () => /not accepted/.test((globalThis as any).document.getElementById("standing").textContent),
      undefined,
      { timeout: 20_000 },
    );
    assert.match(String(await page.textContent("#standing")), /^Your bid of \$20\.00 was not accepted/);
    assert.equal(await page.textContent("#standing-pill"), "Not accepted");
    assert.equal(await second.page.locator("#bids li").count(), 2, "others do not see a refused bid");
    assert.ok(await fitsWidth(page));

    await endAuctionNow(t, f.owner.token, f.app.id, auction.id);
    await textIs(second.page, "standing", "You won this auction");
    assert.equal(await second.page.textContent("#standing-pill"), "Won");
    await textIs(page, "state", "Ended");
    assert.equal(await page.textContent("#countdown"), "Ended");
    assert.equal(await page.isDisabled("#bid"), true);
    assert.equal(await page.isVisible("#bidding"), false, "no bidding form once it has ended");
    assert.equal(await page.textContent("#closed"), "Bidding is closed.");
    assert.equal(await page.isVisible("#next"), false, "no next minimum once it has ended");
    assert.ok(await fitsWidth(second.page));
    assert.deepEqual(
      first.errors.filter((e) => !/status of 4\d\d/.test(e)),
      [],
      "no script errors, no CSP violations",
    );
    assert.deepEqual(second.errors, []);
    await first.context.close();
    await second.context.close();
  });
}
