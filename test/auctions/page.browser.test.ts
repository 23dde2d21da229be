import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../helpers/app.ts";
import { createAuction, endAuctionNow, endsLater, mailedCode } from "../helpers/auctions.ts";
import { buildServedApp, launchBrowser } from "../helpers/browser.ts";
import { call, expectStatus, tenantFixture } from "../helpers/http.ts";
import { textIs } from "../helpers/pages.ts";
import { waitForStatus } from "../helpers/payments.ts";
import { createTestTrigger } from "../helpers/triggers.ts";

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

async function open(url: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  await page.goto(url);
  return { page, errors };
}

async function signIn(page: Page, email: string) {
  const before = t.mailer.to(email).length;
  await page.fill("#email", email);
  await page.click("#send-code");
  await page.fill("#code", await mailedCode(t, email, before));
  await page.click("#sign-in");
  await page.waitForSelector("#bidding:not([hidden])");
}

async function bid(page: Page, amount: string) {
  await page.fill("#amount", amount);
  await page.click("#bid");
}

const standing = (page: Page, text: string, timeout?: number) => textIs(page, "standing", text, timeout);

test("two shoppers bid; the first sees itself outbid live; at the end the winner pays", async () => {
  const auction = await createAuction(t, f.owner.token, f.app.id, {
    name: "Poster",
    amount: 10,
    ends_at: endsLater(),
  });
  const url = `${base}/a/${auction.id}`;
  const first = await open(url);
  const second = await open(url);
  assert.equal(await first.page.textContent("h1"), "Poster");

  await signIn(first.page, "first@example.com");
  await bid(first.page, "10");
  await standing(first.page, "You are the highest bidder");

  await signIn(second.page, "second@example.com");
  await bid(second.page, "15");
  await standing(second.page, "You are the highest bidder");
  // No reload: the first page hears it over the event stream.
  await standing(first.page, "You have been outbid");
  assert.equal(await first.page.textContent("#current"), "$15.00");

  // Ended by its owner once both bids stand: a fixed end could pass first on a loaded machine.
  await endAuctionNow(t, f.owner.token, f.app.id, auction.id);
  await standing(second.page, "You won this auction");
  await textIs(first.page, "state", "Ended");
  const view = expectStatus(
    await call(t, "GET", `/auctions/${f.app.id}/${auction.id}`, { token: f.owner.token }),
    200,
  );
  const byEmail = (email: string) => view.bids.find((b: any) => b.shopper.phone_or_email === email);
  await waitForStatus(t, f.owner.token, f.app.id, byEmail("second@example.com").payment.id, "paid");
  await waitForStatus(t, f.owner.token, f.app.id, byEmail("first@example.com").payment.id, "cancelled");
  assert.ok(view.views >= 2);
  assert.deepEqual(first.errors, [], "no script errors and no CSP violations");
  assert.deepEqual(second.errors, []);
});

test("an auction whose trigger takes parameters asks for them, checks them and sends them with the bid", async () => {
  // The sample trigger declares receiver (an Ethereum address), an optional order_id and quantity.
  const trigger = await createTestTrigger(t, f.owner.token, f.app.id);
  const auction = await createAuction(t, f.owner.token, f.app.id, {
    name: "Minted print",
    trigger_id: trigger.id,
  });
  const { page, errors } = await open(`${base}/a/${auction.id}`);
  await signIn(page, "params@example.com");
  assert.match(String(await page.textContent("#param-receiver-help")), /Who receives/);
  assert.match(String(await page.textContent("label[for=param-order_id]")), /Order id \(optional\)/);
  const sent: unknown[] = [];
  page.on("request", (request) => request.url().endsWith("/bids") && sent.push(request.postDataJSON()));

  await page.getByLabel("Receiver").fill("not an address");
  await page.getByLabel("Quantity").fill("two");
  await bid(page, "12");
  assert.match(String(await page.textContent("#param-receiver-error")), /^Enter an Ethereum address/);
  assert.match(String(await page.textContent("#param-quantity-error")), /^Enter a number/);
  assert.equal(await page.textContent("#message"), "Please check the highlighted fields.");
  assert.equal(sent.length, 0, "nothing is sent while a field is wrong");

  await page.getByLabel("Receiver").fill("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
  await page.getByLabel("Quantity").fill("2");
  const request = page.waitForRequest((r) => r.url().endsWith("/bids"));
  await bid(page, "12");
  assert.deepEqual((await request).postDataJSON().trigger_data_input, {
    params_data_input: { receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", quantity: 2 },
  });
  assert.deepEqual(
    errors.filter((e) => !/status of 4\d\d/.test(e)),
    [],
    "no script errors, no CSP violations",
  );
});
