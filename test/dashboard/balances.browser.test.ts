import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import {
  expectAccessible,
  expectNoConsoleErrors,
  newPage,
  signIn,
  useDashboard,
} from "../helpers/dashboard.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { onboardSeller, RETURN_URL } from "../helpers/kyc.ts";
import { waitForStatus } from "../helpers/payments.ts";
import { newMasterKey } from "../helpers/wallets.ts";
import { withoutRefusals } from "./chain-ui.ts";
import {
  choose,
  createPrice,
  fitsWidth,
  openPayment,
  payWith4242,
  sessionToken,
} from "./payments-fixtures.ts";

// The money in the console (docs/ledger.md, docs/dashboard.md): a marketplace payment's page shows
// its seller transfer and its lines in the books, and refunds part of it from an amount field (a
// refund made elsewhere at the same moment reads as a sentence naming what remains); the Balances
// page shows each currency's balances, a chart of them over time, the movements with their filters
// in the address, and the CSV download; on a phone the movements are cards.
let token: string;
let paymentId: string;

const ui = useDashboard(
  { SECRETS_MASTER_KEY: newMasterKey() },
  {
    async setUp() {
      const { t } = ui.dashboard;
      const { appId } = ui.owner;
      token = await sessionToken(ui.owner.page);
      expectStatus(
        await call(t, "PATCH", `/apps/${appId}`, {
          token,
          body: { type: "marketplace", app_fee: 2.5, kyc_return_url: RETURN_URL },
        }),
        200,
      );
      const seller = await onboardSeller(t, appId, token, "print-seller");
      const price = await createPrice(t, token, appId, { name: "Print", amount: 40, kyc_id: seller.id });
      const payment = await openPayment(t, token, appId, { price_id: price.id });
      await payWith4242(t, token, appId, payment.id);
      await waitForStatus(t, token, appId, payment.id, "paid");
      paymentId = payment.id;
    },
  },
);

const payment = async () =>
  expectStatus(await call(ui.dashboard.t, "GET", `/payments/${ui.owner.appId}/${paymentId}`, { token }), 200);

test("a payment shows its transfer and its books, and refunds part of itself from an amount", async () => {
  const { page, appId, errors } = ui.owner;
  const paid = await payment();
  assert.equal(paid.transfers.length, 1, "the seller was paid");
  await page.goto(`/dashboard/apps/${appId}/payments/${paymentId}`);
  await page.getByRole("heading", { level: 1, name: `Payment ${paymentId}` }).waitFor();
  const transfer = page.getByRole("article", { name: `Transfer ${paid.transfers[0].id}` });
  await transfer.getByText("paid", { exact: true }).waitFor();
  const books = page.getByRole("table", { name: "This payment in the books, newest first" });
  for (const event of ["Card hold", "Capture", "Seller transfer"]) {
    await books.getByText(event, { exact: true }).first().waitFor();
  }
  await books.getByText("App share (available)").first().waitFor();
  await expectAccessible(page);

  // A partial refund: the field starts at all that remains.
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Refund this payment" });
  const amount = dialog.getByLabel("Amount (USD)");
  assert.equal(await amount.inputValue(), paid.final_amount.toFixed(2));
  await expectAccessible(page);
  await amount.fill("0");
  await dialog.getByRole("button", { name: /^Refund \$/ }).click();
  await dialog.getByText("The amount must be more than zero").waitFor();
  await amount.fill("5");
  await dialog.getByRole("button", { name: "Refund $5.00" }).click();
  await dialog.waitFor({ state: "hidden" });
  await page.getByText("($5.00 refunded)").waitFor();
  await books.getByText("Refund", { exact: true }).first().waitFor();
  // The seller's part of it is taken back from the transfer, as a job.
  await transfer.getByText("partly reversed").waitFor({ timeout: 20_000 });
  await transfer.getByText("Reversed", { exact: true }).first().waitFor();

  // Someone else refunds 30 between the page's last look and its request for 10: the service's 409
  // reads as a sentence naming what remains, and the field takes that amount. (Left at "all that
  // remains", the refund would have taken the rest, whatever it was by then.)
  let raced = false;
  await page.route("**/payments/*/*/refund", async (route) => {
    if (!raced) {
      raced = true;
      expectStatus(
        await call(ui.dashboard.t, "POST", `/payments/${appId}/${paymentId}/refund`, {
          token,
          body: { amount: "30" },
        }),
        200,
      );
    }
    await route.continue();
  });
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await amount.fill("10");
  await dialog.getByRole("button", { name: "Refund $10.00" }).click();
  const left = ((paid.final_amount * 100 - 3500) / 100).toFixed(2);
  await dialog.getByText(`Only $${left} of this payment remains to be refunded`).waitFor();
  assert.equal(await amount.inputValue(), left);
  assert.equal(await dialog.getByText("conflict").count(), 0, "never the machine code");
  await expectAccessible(page);
  await page.unroute("**/payments/*/*/refund");
  await dialog.getByRole("button", { name: `Refund $${left}` }).click();
  await page.getByText("Moved to refunded").waitFor();
  await transfer.getByText("reversed", { exact: true }).waitFor({ timeout: 20_000 });
  // The one request the race made fail is the browser's only complaint.
  errors.splice(0, errors.length, ...withoutRefusals(errors, 409, 1));
  expectNoConsoleErrors(errors);
});

test("the Balances page: balances per currency, a chart, movements filtered in the address, the CSV", async () => {
  const { page, appId, errors } = ui.owner;
  const balances = expectStatus(await call(ui.dashboard.t, "GET", `/balances/${appId}`, { token }), 200);
  const usd = balances.balances.find((balance: { currency: string }) => balance.currency === "usd");
  await page.goto(`/dashboard/apps/${appId}`);
  await page.getByRole("navigation", { name: "App pages" }).getByRole("link", { name: "Balances" }).click();
  await page.getByRole("heading", { level: 1, name: "Balances" }).waitFor();
  const card = page.getByRole("region", { name: "Balance in USD" });
  const usdText = (decimal: string) =>
    new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(Number(decimal));
  await card.getByText(usdText(usd.available), { exact: true }).first().waitFor();
  assert.match(await card.innerText(), /Refunded/);
  assert.ok((await card.innerText()).includes(usdText(usd.refunded)), "the refunds, as the API says");
  await page.getByRole("heading", { name: "Balance over time" }).waitFor();
  await page.locator(".recharts-surface").first().waitFor();
  await page.getByText(/Available went from .* now\. Days are UTC days/).waitFor();
  const movements = page.getByRole("table", { name: "Movements, newest first" });
  // Newest first: the refunds made above lead the list.
  await movements.getByText("Refund made", { exact: true }).first().waitFor();
  // Reconciliation: none yet; asked for, it compares the books with the payments, the provider and
  // the chain, and says so (the sandbox agrees with the books).
  const reconciliation = page.getByRole("region", { name: "Reconciliation" });
  await reconciliation.getByText("No run yet.").waitFor();
  await reconciliation.getByRole("button", { name: "Check now" }).click();
  await reconciliation.getByText("Everything agrees").waitFor({ timeout: 20_000 });
  await reconciliation.getByText(/payments compared/).waitFor();
  await expectAccessible(page);

  // Filtered by event: in the address, kept on reload.
  await choose(page, "Event", "Capture");
  await page.waitForURL(/[?&]type=capture\b/);
  await movements.getByText("Refund made", { exact: true }).first().waitFor({ state: "detached" });
  const kinds = await movements.locator("tbody tr .mantine-Badge-root").allInnerTexts();
  assert.ok(kinds.length > 0 && kinds.every((kind) => kind === "Capture"), `only captures: ${kinds}`);
  await page.reload();
  await movements.getByText("Capture", { exact: true }).first().waitFor();
  assert.equal(await page.getByRole("textbox", { name: "Event", exact: true }).inputValue(), "Capture");
  await page.getByLabel("Payment id").fill("pay_none");
  await page.getByRole("button", { name: "Apply" }).click();
  await page.getByText("No movement matches these filters").waitFor();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await movements.getByText("Refund made", { exact: true }).first().waitFor();
  assert.doesNotMatch(page.url(), /type=|payment_id=/);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download CSV" }).click(),
  ]);
  const csv = await readFile((await download.path()) ?? "", "utf8");
  const lines = csv.trim().split("\r\n");
  assert.equal(
    lines[0],
    "id,transaction_id,created_at_utc,type,account,currency,amount,payment_id,reference",
  );
  const listed = await call(ui.dashboard.t, "GET", `/balance-transactions/${appId}?limit=1`, { token });
  assert.equal(lines.length - 1, Number(expectStatus(listed, 200) && listed.headers["x-total-count"]));
  expectNoConsoleErrors(errors);
});

test("at 390 px the movements are cards, nothing scrolls sideways, dialogs pass axe", async () => {
  const narrow = await newPage(ui.dashboard, { width: 390 });
  await signIn(narrow.page, ui.owner.email, ui.owner.password);
  await narrow.page.goto(`/dashboard/apps/${ui.owner.appId}/balances?type=capture`);
  const cards = narrow.page.getByRole("article", { name: /^Movement ble_/ });
  await cards.first().waitFor();
  assert.ok((await cards.count()) >= 3, "a capture's lines, one card each");
  await cards.first().getByText("Capture").waitFor();
  await cards.first().getByRole("link", { name: paymentId }).waitFor();
  assert.equal(await fitsWidth(narrow.page, 390), true, "no sideways scroll on Balances");
  await expectAccessible(narrow.page);

  await cards.first().getByRole("link", { name: paymentId }).click();
  await narrow.page.getByRole("heading", { level: 1, name: `Payment ${paymentId}` }).waitFor();
  await narrow.page.getByRole("region", { name: "This payment in the books, newest first" }).waitFor();
  assert.equal(await fitsWidth(narrow.page, 390), true, "no sideways scroll on the payment");
  await expectAccessible(narrow.page);
  expectNoConsoleErrors(narrow.errors);
});
