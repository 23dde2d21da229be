import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp, launchBrowser } from "../helpers/browser.ts";
import { call, expectStatus, signup } from "../helpers/http.ts";
import { CARDS, waitForStatus } from "../helpers/payments.ts";
import { EVM_ABI } from "../helpers/triggers.ts";
import { newMasterKey } from "../helpers/wallets.ts";

// A shopper buys a priced trigger with parameters on the hosted checkout. Everything goes through
// the public HTTP API and the page in Chromium, as a seller and a shopper would.

const RECEIVER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

let t: TestApp;
let base: string;
let browser: Browser;
let seller: { token: string };
let appId: string;
let triggerId: string;

before(async () => {
  ({ t, base } = await buildServedApp({
    SECRETS_MASTER_KEY: newMasterKey(),
    EVM_TESTNET_CONFIRMATIONS: "1",
    EVM_TESTNET_BLOCK_SECONDS: "1",
  }));
  browser = await launchBrowser();
  seller = await signup(t);
  const api = (method: string, url: string, body?: unknown) =>
    call(t, method, url, { token: seller.token, body });
  appId = expectStatus(
    await api("POST", "/apps", { name: "Token shop", app_fee: 0, use_explorer: false }),
    201,
  ).id;
  const wallet = expectStatus(await api("POST", `/wallets/${appId}`, { name: "Minter", type: "evm" }), 201);
  // The parameters as the interface writes them: one descriptor object per type key.
  const params_data = {
    string: {
      name: "receiver",
      desc: "Who receives the tokens",
      is_ethereum_address: true,
      optional: false,
      nullable: false,
    },
    number: { name: "quantity", desc: "How many tokens", optional: false, nullable: false },
  };
  const trigger = expectStatus(
    await api("POST", `/triggers/${appId}`, {
      name: "Mint tokens",
      wallet_id: wallet.id,
      call_data: {
        evm: {
          contract_id: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
          method_name: "mintTo",
          abi: EVM_ABI,
          gas_limit: "100000",
          data: [{ name: "memo", value: "hosted checkout" }],
          data_input: { to: "{{receiver}}", amount: "{{quantity}}" },
        },
      },
      params_data,
    }),
    201,
  );
  assert.deepEqual(trigger.params_data, params_data, "read back in the form it was written");
  triggerId = trigger.id;
});

after(async () => {
  await browser?.close();
  await t?.close();
});

async function newPrice(name: string) {
  return expectStatus(
    await call(t, "POST", `/prices/${appId}`, {
      token: seller.token,
      body: { name, amount: 25, currency: "usd", trigger_id: triggerId, chain: "evm" },
    }),
    201,
  );
}

async function paymentsOf(priceId: string) {
  return expectStatus(
    await call(t, "GET", `/payments/${appId}?price_id=${priceId}`, { token: seller.token }),
    200,
  ) as any[];
}

async function open(priceId: string) {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  const response = await page.goto(`${base}/checkout/${priceId}`);
  return { page, errors, response };
}

async function fillOrder(page: Page, receiver: string, quantity: string) {
  await page.getByLabel("Email (for your receipt)").fill("shopper@example.com");
  await page.getByLabel("Receiver").fill(receiver);
  await page.getByLabel("Quantity").fill(quantity);
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry (MM/YY)").fill("12/30");
  await page.getByLabel("CVC").fill("123");
}

const text = async (page: Page, selector: string) => String(await page.textContent(selector)).trim();

test("the shopper sees the total, fills the parameters, pays and gets a receipt; the call runs with them", async () => {
  const price = await newPrice("Token pack");
  const item = expectStatus(
    await call(t, "GET", `/prices/${appId}/${price.id}/price-item`, { token: seller.token }),
    200,
  );
  const { page, errors, response } = await open(price.id);
  assert.match(String(response?.headers()["content-security-policy"]), /script-src 'nonce-[^' ]+';/);
  // Before paying: the price, the fees and the total the card will be charged (the price_item's).
  const total = `$${item.amount_total.toFixed(2)}`;
  assert.equal(await text(page, "#quote-price"), "$25.00");
  assert.equal(await text(page, "#quote-fees"), `$${item.amount_transaction_fee.toFixed(2)}`);
  assert.equal(await text(page, "#quote-total"), total);
  assert.equal(await text(page, "#submit"), `Pay ${total}`);
  // One labelled field per parameter, with its description as help.
  assert.match(await text(page, "#param-receiver-help"), /Who receives the tokens/);
  assert.match(await text(page, "#param-quantity-help"), /How many tokens/);

  await fillOrder(page, RECEIVER, "3");
  await fillCard(page, CARDS.ok);
  await page.getByRole("button", { name: `Pay ${total}` }).click();
  await page.waitForSelector("#receipt:not([hidden])", { timeout: 30_000 });
  assert.equal(await text(page, "#receipt-total"), total, "the receipt shows what was charged");
  assert.equal(await text(page, "#receipt-fees"), `$${item.amount_transaction_fee.toFixed(2)}`);
  assert.match(await text(page, "#message"), /Paid/);
  assert.deepEqual(errors, [], "no script errors and no CSP violations");

  const [payment] = await paymentsOf(price.id);
  assert.equal(await text(page, "#receipt-id"), payment.id);
  const paid = await waitForStatus(t, seller.token, appId, payment.id, "paid");
  assert.deepEqual(paid.trigger_data_input, { params_data_input: { receiver: RECEIVER, quantity: 3 } });
  assert.equal(paid.final_amount, item.amount_total);
  assert.equal(paid.shopper_email, "shopper@example.com");
  assert.match(paid.transaction_id, /^0x[0-9a-f]{64}$/, "the contract call ran");
  await page.close();
});

test("a bad address is refused next to its field, in the browser and on the server; no payment is opened", async () => {
  const price = await newPrice("Token pack, bad address");
  const { page, errors } = await open(price.id);
  await fillOrder(page, "0x1234", "2");
  await fillCard(page, CARDS.ok);
  await page.click("#submit");
  await page.waitForSelector("#param-receiver-error:not([hidden])");
  assert.match(await text(page, "#param-receiver-error"), /^Enter an Ethereum address: 0x followed by 40/);
  assert.equal(await page.getAttribute("#param-receiver", "aria-invalid"), "true");
  assert.equal(await page.isHidden("#param-quantity-error"), true, "the good field has no message");
  // Right shape, wrong checksum: only the server can tell; its answer lands next to the same field.
  const badChecksum = `${RECEIVER.slice(0, -1)}c`;
  await page.getByLabel("Receiver").fill(badChecksum);
  await page.click("#submit");
  await page.waitForSelector("#param-receiver-error:not([hidden])");
  assert.match(await text(page, "#param-receiver-error"), /^Enter a valid Ethereum address/);
  assert.equal(await text(page, "#message"), "Please check the highlighted fields.");
  assert.equal((await paymentsOf(price.id)).length, 0, "parameters are checked before a payment is opened");
  assert.deepEqual(
    errors.filter((e) => !/status of 400/.test(e)),
    [],
  );
  await page.close();
});

test("an empty card reads as plain words next to each card field", async () => {
  const price = await newPrice("Token pack, empty card");
  const { page } = await open(price.id);
  await fillOrder(page, RECEIVER, "1");
  await page.click("#submit");
  assert.equal(await text(page, "#number-error"), "Enter the card number.");
  assert.equal(await text(page, "#exp-error"), "Enter the expiry date as MM/YY.");
  assert.equal(await text(page, "#cvc-error"), "Enter the 3 or 4 digits on the back of the card.");
  const message = await text(page, "#message");
  assert.equal(message, "Please check the highlighted fields.");
  assert.doesNotMatch(await page.content(), /\/body\/|must match|anyOf/, "no validator text anywhere");
  assert.equal((await paymentsOf(price.id)).length, 0);
  await page.close();
});

test("a declined card, then a good one: one payment, confirmed twice, paid", async () => {
  const price = await newPrice("Token pack, second card");
  const { page, errors } = await open(price.id);
  await fillOrder(page, RECEIVER, "2");
  await fillCard(page, CARDS.declined);
  await page.click("#submit");
  await page.waitForSelector("#message.error", { timeout: 20_000 });
  assert.match(await text(page, "#message"), /declined/i);
  assert.match(await text(page, "#number-error"), /declined/i, "the reason sits next to the card");
  const [waiting] = await paymentsOf(price.id);
  assert.equal(waiting.status, "pending", "the payment waits for another card");

  await page.getByLabel("Card number").fill(CARDS.ok);
  await page.click("#submit");
  await page.waitForSelector("#receipt:not([hidden])", { timeout: 30_000 });
  const all = await paymentsOf(price.id);
  assert.equal(all.length, 1, "the second try reused the payment of the first");
  await waitForStatus(t, seller.token, appId, waiting.id, "paid");
  assert.deepEqual(errors, []);
  await page.close();
});

test("changing the order after a decline withdraws the old payment: none is left pending", async () => {
  const price = await newPrice("Token pack, changed order");
  const { page, errors } = await open(price.id);
  await fillOrder(page, RECEIVER, "2");
  await fillCard(page, CARDS.declined);
  await page.click("#submit");
  await page.waitForSelector("#message.error", { timeout: 20_000 });
  await page.getByLabel("Quantity").fill("5");
  await page.getByLabel("Card number").fill(CARDS.ok);
  await page.click("#submit");
  await page.waitForSelector("#receipt:not([hidden])", { timeout: 30_000 });
  const all = await paymentsOf(price.id);
  assert.equal(all.length, 2, "one payment per order");
  const [latest, first] = all;
  assert.equal(first.status, "cancelled", "the payment of the old order was withdrawn");
  assert.deepEqual(latest.trigger_data_input, { params_data_input: { receiver: RECEIVER, quantity: 5 } });
  await waitForStatus(t, seller.token, appId, latest.id, "paid");
  assert.deepEqual(errors, []);
  await page.close();
});

test("an unknown price answers a 404 page, an expired one a 410 page, both HTML", async () => {
  const unknown = await open("price_does_not_exist");
  assert.equal(unknown.response?.status(), 404);
  assert.match(String(unknown.response?.headers()["content-type"]), /^text\/html/);
  assert.equal(await text(unknown.page, "h1"), "Checkout not found");
  assert.deepEqual(
    unknown.errors.filter((e) => !/status of 404/.test(e)),
    [],
  );
  await unknown.page.close();

  const price = await newPrice("Sold out pack");
  expectStatus(
    await call(t, "PATCH", `/prices/${appId}/${price.id}`, { token: seller.token, body: { expired: true } }),
    200,
  );
  const expired = await open(price.id);
  assert.equal(expired.response?.status(), 410);
  assert.match(String(expired.response?.headers()["content-type"]), /^text\/html/);
  assert.equal(await text(expired.page, "h1"), "No longer available");
  assert.match(String(expired.response?.headers()["content-security-policy"]), /default-src 'none'/);
  await expired.page.close();
});
