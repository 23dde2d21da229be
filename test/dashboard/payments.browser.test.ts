import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import {
  type Dashboard,
  expectAccessible,
  expectNoConsoleErrors,
  type OwnerPage,
  useDashboard,
} from "../helpers/dashboard.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { bank, waitForStatus } from "../helpers/payments.ts";
import { newMasterKey } from "../helpers/wallets.ts";
import { accessibleDialog } from "./dialogs.ts";
import {
  choose,
  createPrice,
  createTrigger,
  fitsWidth,
  openPayment,
  payOnCheckout,
  payWith4242,
  sessionToken,
} from "./payments-fixtures.ts";

// Payments in the console: a shopper pays on the real hosted checkout with the 4242 card, and the
// owner finds the payment by status, email and id, reads its timeline and charge breakdown, refunds
// it and cancels another behind confirmations, watches a contract call's confirmations count up,
// and pages through the list by cursor.
let token: string;
let price: { id: string };
let chainPrice: { id: string };

const RECEIVER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

// Sandbox chains on a fast clock: 3 confirmations, one a second.
const ui = useDashboard(
  {
    SECRETS_MASTER_KEY: newMasterKey(),
    EVM_TESTNET_CONFIRMATIONS: "3",
    EVM_TESTNET_BLOCK_SECONDS: "1",
  },
  {
    async setUp() {
      token = await sessionToken(ui.owner.page);
      price = await createPrice(ui.dashboard.t, token, ui.owner.appId, {
        name: "Concert ticket",
        amount: 25,
      });
    },
  },
);

const badge = (page: OwnerPage["page"]) => page.locator("main .mantine-Badge-root").first();

test("a payment paid on the hosted checkout is found by status, email and id, with its story", async () => {
  const { page, appId } = ui.owner;
  const { t, base } = ui.dashboard;
  const shopper = await ui.dashboard.browser.newPage();
  await payOnCheckout(shopper, base, price.id, "shopper@example.com");
  await shopper.close();
  const pending = await openPayment(t, token, appId, {
    price_id: price.id,
    shopper_email: "other@example.com",
  });

  await page.goto(`/dashboard/apps/${appId}/payments`);
  await page.getByRole("heading", { level: 1, name: "Payments" }).waitFor();
  await page.getByRole("link", { name: pending.id }).waitFor();
  assert.equal(await page.getByRole("row").count(), 3, "a header and two payments");
  await expectAccessible(page);

  await choose(page, "Status", "paid");
  await page.getByRole("cell", { name: "shopper@example.com" }).waitFor();
  await page.getByRole("cell", { name: "other@example.com" }).waitFor({ state: "detached" });
  assert.equal(await page.getByRole("row").count(), 2);

  await choose(page, "Status", "Any status");
  // A piece of the email, any case: the server searches (it is in the address, to share).
  await page.getByLabel("Search by payment id or email").fill("OTHER@");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByRole("cell", { name: "other@example.com" }).waitFor();
  await page.getByRole("cell", { name: "shopper@example.com" }).waitFor({ state: "detached" });
  assert.equal(await page.getByRole("row").count(), 2, "only the other shopper's payment");
  assert.match(page.url(), /[?&]q=OTHER%40/);

  // The same view from its address alone, then exported as CSV.
  await page.goto(page.url());
  await page.getByRole("cell", { name: "other@example.com" }).waitFor();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Export CSV" }).click(),
  ]);
  const csv = await readFile((await download.path()) ?? "", "utf8");
  const lines = csv.trim().split("\r\n");
  assert.equal(lines[0], "id,status,amount,currency,shopper_email,price,created_at");
  assert.equal(lines.length, 2, "a header and the one payment the filter finds");
  assert.match(lines[1], /other@example\.com/);

  // An amount range (fees included) in the charge currency, and a day range.
  await page.getByRole("button", { name: "Clear filters" }).click();
  await page.getByLabel("Amount from").fill("1000");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByText("No payment matches these filters").waitFor();
  await page.getByLabel("Amount from").fill("");
  await page.getByLabel("Amount to").fill("1000");
  const today = new Date().toLocaleDateString("en-CA");
  await page.getByLabel("Created from").fill(today);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByRole("cell", { name: "other@example.com" }).waitFor();
  await page.getByRole("cell", { name: "shopper@example.com" }).waitFor();

  await page.getByLabel("Search by payment id or email").fill("ab");
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByText("Type at least 3 characters of the email").waitFor();
  await page.getByRole("button", { name: "Clear filters" }).click();

  const paid = (
    await waitForStatus(t, token, appId, (await paymentOf(t, appId, "shopper@example.com")).id, "paid")
  ).id as string;
  await page.getByLabel("Search by payment id or email").fill(paid);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByRole("link", { name: paid }).click();

  await page.getByRole("heading", { level: 1, name: `Payment ${paid}` }).waitFor();
  assert.equal(await badge(page).textContent(), "paid");
  const breakdown = page.getByRole("table", { name: "Fixed when the payment was opened" });
  await breakdown.getByRole("row", { name: /Price\s*\$25\.00/ }).waitFor();
  await breakdown.getByRole("row", { name: /^Charged/ }).waitFor();
  // The timeline is the payment's recorded status changes, each with who moved it.
  await page.getByText("Opened as pending").waitFor();
  await page.getByText("via card · created · by the shopper").waitFor();
  await page.getByText("Moved to hold").waitFor();
  await page.getByText("Moved to paid").waitFor();
  await page.getByText("This payment's price runs no contract call.").waitFor();
  await expectAccessible(page);

  await page.getByRole("button", { name: "Refund" }).click();
  const dialog = await accessibleDialog(page, "Refund this payment");
  // The amount starts at all that remains: left as it is, the refund is whole.
  const total = await dialog.getByLabel("Amount (USD)").inputValue();
  await dialog.getByRole("button", { name: `Refund $${total}` }).click();
  await page.getByText("Moved to refunded").waitFor();
  assert.equal(await badge(page).textContent(), "refunded");
  expectNoConsoleErrors(ui.owner.errors);
});

test("a pending payment is cancelled behind a confirmation", async () => {
  const { page, appId } = ui.owner;
  const { t } = ui.dashboard;
  const payment = await openPayment(t, token, appId, {
    price_id: price.id,
    shopper_email: "later@example.com",
  });
  await page.goto(`/dashboard/apps/${appId}/payments/${payment.id}`);
  await page.getByRole("heading", { level: 1, name: `Payment ${payment.id}` }).waitFor();
  // Nothing has been charged yet, and the page says so instead of "charged".
  const breakdown = page.getByRole("table", { name: "Fixed when the payment was opened" });
  await breakdown.getByRole("row", { name: /Total \(not charged yet\)/ }).waitFor();
  await breakdown.getByRole("row", { name: /Seller share \(if charged\)/ }).waitFor();
  await page.getByRole("button", { name: "Cancel payment" }).click();
  const dialog = await accessibleDialog(page, "Cancel this payment?");
  // Two buttons with two names: one keeps the payment, the other cancels it.
  assert.equal(await dialog.getByRole("button", { name: "Cancel", exact: true }).count(), 0);
  await dialog.getByRole("button", { name: "Keep payment" }).click();
  await dialog.waitFor({ state: "hidden" });
  assert.equal(await badge(page).textContent(), "pending");
  await page.getByRole("button", { name: "Cancel payment" }).click();
  await dialog.getByRole("button", { name: "Cancel payment" }).click();
  await page.getByText("Moved to cancelled").waitFor();
  await waitForStatus(t, token, appId, payment.id, "cancelled");
  expectNoConsoleErrors(ui.owner.errors);
});

test("a status picked and Search pressed at once both apply", async () => {
  const { page, appId } = ui.owner;
  await openPayment(ui.dashboard.t, token, appId, { price_id: price.id, shopper_email: "quick@example.com" });
  await page.goto(`/dashboard/apps/${appId}/payments?status=cancelled`);
  await page.getByRole("heading", { level: 1, name: "Payments" }).waitFor();
  await page.getByLabel("Search by payment id or email").fill("QUICK@");
  await page.getByRole("textbox", { name: "Status", exact: true }).click();
  await page.getByRole("option", { name: "Any status", exact: true }).waitFor();
  // Both in one task, before the router has applied the first: the search must not start from
  // the address the page last rendered (status=cancelled) and so undo the status just picked.
  await page.evaluate(`{
    const named = (selector, text) =>
      [...document.querySelectorAll(selector)].find((node) => node.textContent === text);
    named('[role="option"]', "Any status").click();
    named("button", "Search").click();
  }`);
  await page.waitForURL(/[?&]q=QUICK%40/);
  assert.doesNotMatch(page.url(), /status=/);
  await page.getByRole("cell", { name: "quick@example.com" }).waitFor();
  expectNoConsoleErrors(ui.owner.errors);
});

test("a contract call's confirmations count up on the page while it waits", async () => {
  const { page, appId } = ui.owner;
  const { t } = ui.dashboard;
  const trigger = await createTrigger(t, token, appId);
  chainPrice = await createPrice(t, token, appId, {
    name: "Minted",
    trigger_id: trigger.id,
    chain: "evm",
  });
  const payment = await openPayment(t, token, appId, {
    price_id: chainPrice.id,
    trigger_data_input: { params_data_input: { receiver: RECEIVER, quantity: 2, order_id: "A-1" } },
  });
  // The page opens before the payment is paid: on a busy machine the three one-second blocks
  // could otherwise all pass before it loads.
  await page.goto(`/dashboard/apps/${appId}/payments/${payment.id}`);
  await page.getByRole("heading", { level: 1, name: `Payment ${payment.id}` }).waitFor();
  assert.equal(await badge(page).textContent(), "pending");
  await payWith4242(t, token, appId, payment.id);
  // No reload from here on: the page reads the payment again while it moves.
  // The chain card's count (the timeline repeats it).
  await page.getByText("3 of 3 confirmations").last().waitFor({ timeout: 30_000 });
  await page.getByText("confirmed", { exact: true }).waitFor();
  await page.getByText("Moved to paid").waitFor({ timeout: 20_000 });
  const transaction = await page.getByRole("textbox", { name: "Transaction" }).inputValue();
  assert.match(transaction, /^0x[0-9a-f]{64}$/);
  const progress = page.getByRole("progressbar", { name: "Confirmation progress" });
  assert.equal(await progress.getAttribute("aria-valuenow"), "100");
  await expectAccessible(page);
  expectNoConsoleErrors(ui.owner.errors);
});

test("a reverted contract call after a bank debit is failed-captured, and retried behind a confirmation", async () => {
  const { page, appId } = ui.owner;
  const { t } = ui.dashboard;
  const payment = await openPayment(t, token, appId, {
    price_id: chainPrice.id,
    payment_provider: "us_bank_account",
    trigger_data_input: {
      params_data_input: { receiver: RECEIVER, quantity: 1, order_id: "sandbox:revert" },
    },
  });
  expectStatus(
    await call(t, "POST", `/payments/${appId}/${payment.id}/confirm`, {
      token,
      body: { payment_method: bank() },
    }),
    200,
  );
  await waitForStatus(t, token, appId, payment.id, "failed-captured");
  await page.goto(`/dashboard/apps/${appId}/payments/${payment.id}`);
  await page.getByRole("heading", { level: 1, name: `Payment ${payment.id}` }).waitFor();
  assert.equal(await badge(page).textContent(), "failed-captured");
  await page.getByText("Moved to failed-captured").waitFor();
  await page.getByText("Error", { exact: true }).waitFor();
  await page
    .getByText(/revert/i)
    .first()
    .waitFor();
  await page.getByRole("button", { name: "Refund" }).waitFor();
  await page.getByRole("button", { name: "Retry" }).click();
  await (await accessibleDialog(page, "Retry the failed step?"))
    .getByRole("button", { name: "Retry" })
    .click();
  await page.getByText("Retry started").waitFor();
  await expectAccessible(page);
  expectNoConsoleErrors(ui.owner.errors);
});

test("the list pages by cursor, and fits 390 px", async () => {
  const { page, appId } = ui.owner;
  const { t } = ui.dashboard;
  for (let i = 0; i < 21; i++) {
    await openPayment(t, token, appId, { price_id: price.id, shopper_email: `bulk${i}@example.com` });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/dashboard/apps/${appId}/payments`);
  // On a phone each payment is a card (resilience.browser.test.ts checks what a card shows).
  const cards = page.getByRole("article", { name: /^Payment pay_/ });
  await cards.filter({ hasText: "bulk20@example.com" }).waitFor();
  assert.equal(await cards.count(), 20, "20 payments, one card each");
  await page.getByText(/Page 1 · \d+ in all/).waitFor();
  assert.equal(await fitsWidth(page, 390), true, "no horizontal scroll on the list");
  await expectAccessible(page);

  await page.getByRole("button", { name: "Next" }).click();
  await page.getByText(/Page 2/).waitFor();
  await cards.filter({ hasText: "bulk0@example.com" }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Next" }).isDisabled(), true, "the last page");
  await page.getByRole("button", { name: "Previous" }).click();
  await cards.filter({ hasText: "bulk20@example.com" }).waitFor();

  await page.getByRole("link", { name: /^pay_/ }).first().click();
  await page.getByRole("heading", { level: 1 }).waitFor();
  await page.getByText("Opened as pending").waitFor();
  assert.equal(await fitsWidth(page, 390), true, "no horizontal scroll on the payment");
  await expectAccessible(page);
  expectNoConsoleErrors(ui.owner.errors);
});

async function paymentOf(t: Dashboard["t"], appId: string, email: string): Promise<{ id: string }> {
  const payments = expectStatus(await call(t, "GET", `/payments/${appId}?limit=100`, { token }), 200);
  const found = payments.find((payment: { shopper_email: string }) => payment.shopper_email === email);
  assert.ok(found, `a payment of ${email}`);
  return found;
}
