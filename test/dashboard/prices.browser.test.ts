import assert from "node:assert/strict";
import { test } from "node:test";
import { expectAccessible, expectNoConsoleErrors, useDashboard } from "../helpers/dashboard.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { newMasterKey } from "../helpers/wallets.ts";
import { withoutRefusals } from "./chain-ui.ts";
import { accessibleDialog } from "./dialogs.ts";
import { choose, createSeller, createTrigger, fitsWidth, sessionToken } from "./payments-fixtures.ts";
import { expectCard } from "./phone.ts";

// Prices in the console: an owner creates a static and a dynamic price through the form (one linked
// to a trigger and a seller), finds them listed, copies the checkout link, sees its QR code, and
// reads the view a shopper's visit to the hosted checkout counted.
let token: string;

const ui = useDashboard(
  { SECRETS_MASTER_KEY: newMasterKey() },
  {
    async setUp() {
      token = await sessionToken(ui.owner.page);
    },
  },
);

test("an owner creates prices through the form and finds them listed", async () => {
  const { page, appId } = ui.owner;
  const { t } = ui.dashboard;
  await createTrigger(t, token, appId);
  await createSeller(t, token, appId, "seller-ada");

  await page.goto(`/dashboard/apps/${appId}/prices`);
  await page.getByRole("heading", { level: 1, name: "Prices" }).waitFor();
  await page.getByText("No prices yet").waitFor();
  await expectAccessible(page);

  await page.getByLabel("Name").fill("Concert ticket");
  await page.getByLabel("Amount").fill("25.50");
  await page.getByLabel("Currency").fill("usd");
  await choose(page, "Trigger", "Mint tokens (evm)");
  await choose(page, "Seller", "seller-ada");
  await page.getByRole("button", { name: "Create price" }).click();
  await page.getByRole("link", { name: "Concert ticket" }).waitFor();
  await page.getByText('Price "Concert ticket" created').waitFor();

  await page.getByRole("radio", { name: "Dynamic" }).check();
  await page.getByLabel("Name").fill("Donation");
  await page.getByLabel("Minimum amount").fill("5");
  await page.getByRole("button", { name: "Create price" }).click();
  await page.getByRole("link", { name: "Donation" }).waitFor();
  assert.equal(await page.getByRole("cell", { name: "$25.50" }).isVisible(), true);
  await expectAccessible(page);

  const prices = expectStatus(await call(t, "GET", `/prices/${appId}`, { token }), 200);
  const ticket = prices.find((price: any) => price.name === "Concert ticket");
  assert.equal(ticket.type, "static");
  assert.equal(ticket.amount_decimal, "25.5");
  assert.ok(ticket.trigger_id && ticket.kyc_id, "linked to the trigger and the seller");
  assert.equal(ticket.chain, "evm");
  assert.equal(prices.find((price: any) => price.name === "Donation").type, "dynamic");
  expectNoConsoleErrors(ui.owner.errors);
});

test("a price's page gives the checkout link to copy, its QR code and the views it counted", async () => {
  const { page, appId } = ui.owner;
  await page.goto(`/dashboard/apps/${appId}/prices`);
  await page.getByRole("link", { name: "Concert ticket" }).click();
  await page.getByRole("heading", { level: 1, name: "Concert ticket" }).waitFor();
  const link = page.getByRole("textbox", { name: "Checkout link" });
  const url = await link.inputValue();
  assert.match(url, new RegExp(`^${ui.dashboard.base}/checkout/price_`));
  await page.getByRole("img", { name: "QR code of the checkout link" }).waitFor();
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy Checkout link" }).click();
  assert.equal(await page.evaluate<string>("navigator.clipboard.readText()"), url);
  // The fee preview: the sandbox card's 2.9% with its $0.30 minimum, and the platform's 1%.
  const fees = page.getByRole("table", { name: /would record now/ });
  await fees.getByText("2.9%, at least $0.30").waitFor();
  await fees.getByText("1% of the price").waitFor();
  await expectAccessible(page);

  // A shopper opens the hosted checkout: the price's page counts the view.
  const shopper = await ui.dashboard.browser.newPage();
  const response = await shopper.goto(url);
  assert.equal(response?.status(), 200);
  await shopper.close();
  await page.reload();
  const views = page.getByText("Checkout views", { exact: true }).locator("..");
  assert.equal(await views.textContent(), "Checkout views1");

  // Expiring it, behind a confirmation, closes the checkout.
  await page.getByRole("button", { name: "Expire" }).click();
  await (await accessibleDialog(page, "Expire this price?")).getByRole("button", { name: "Expire" }).click();
  await page.getByText("expired", { exact: true }).waitFor();
  // Reactivating and deleting ask first too; both kept for now. (The closing dialog's button is
  // "Reactivate" too until it is gone.)
  await page.getByRole("dialog").waitFor({ state: "hidden" });
  for (const [button, title] of [
    ["Reactivate", "Reactivate this price?"],
    ["Delete", /^Delete .*\?$/],
  ] as const) {
    await page.getByRole("button", { name: button, exact: true }).click();
    const dialog = await accessibleDialog(page, title);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
  }
  const closed = await ui.dashboard.browser.newPage();
  assert.equal((await closed.goto(url))?.status(), 410);
  await closed.close();

  // Its payments are one click away: the payments list, filtered to this price.
  await page.getByRole("link", { name: "Payments of this price" }).click();
  await page.getByRole("heading", { level: 1, name: "Payments" }).waitFor();
  await page.getByText(`Payments of price ${url.split("/").at(-1)}.`).waitFor();
  await page.getByText("No payments yet").waitFor();
  expectNoConsoleErrors(ui.owner.errors);
});

test("a price's name, amount and expiry are edited in a dialog; only what changed is sent", async () => {
  const { page, appId } = ui.owner;
  const { t } = ui.dashboard;
  await page.goto(`/dashboard/apps/${appId}/prices`);
  await page.getByRole("link", { name: "Donation" }).click();
  await page.getByRole("heading", { level: 1, name: "Donation" }).waitFor();
  await page.getByRole("button", { name: "Edit price" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Donation" });
  assert.equal(await dialog.getByLabel("Minimum amount (USD)").inputValue(), "5");
  await expectAccessible(page);

  // The service's refusal shows under the field it names.
  await dialog.getByLabel("Minimum amount (USD)").fill("abc");
  await dialog.getByRole("button", { name: "Save price" }).click();
  await dialog.locator(".mantine-InputWrapper-error").first().waitFor();
  assert.equal(await dialog.getByRole("alert").count(), 0, "no banner for a field's error");

  const tomorrow = new Date(Date.now() + 24 * 3600_000);
  const pad = (n: number) => String(n).padStart(2, "0");
  const local = `${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}T10:30`;
  await dialog.getByLabel("Name").fill("Tip jar");
  await dialog.getByLabel("Minimum amount (USD)").fill("7.50");
  await dialog.getByLabel("Expires at").fill(local);
  await dialog.getByRole("button", { name: "Save price" }).click();
  await page.getByRole("heading", { level: 1, name: "Tip jar" }).waitFor();
  await page.getByText("Expires", { exact: true }).waitFor();
  const saved = expectStatus(
    await call(t, "GET", `/prices/${appId}/${page.url().split("/").at(-1)}`, { token }),
    200,
  );
  assert.equal(saved.name, "Tip jar");
  assert.equal(saved.amount_decimal, "7.5");
  assert.equal(saved.expires_at, new Date(local).toISOString(), "the viewer's local time, as an instant");
  assert.equal(saved.expired, false);

  // Emptied, the expiry goes; the rest is not sent again.
  await page.getByRole("button", { name: "Edit price" }).click();
  const again = page.getByRole("dialog", { name: "Edit Tip jar" });
  await again.getByLabel("Expires at").fill("");
  await again.getByRole("button", { name: "Save price" }).click();
  await again.waitFor({ state: "hidden" });
  await page.getByText("Expires", { exact: true }).waitFor({ state: "detached" });
  const cleared = expectStatus(await call(t, "GET", `/prices/${appId}/${saved.id}`, { token }), 200);
  assert.equal(cleared.expires_at, null);
  assert.equal(cleared.updated_at > saved.updated_at, true);
  // The one request refused on purpose (the amount "abc") is the browser's only complaint.
  const rest = withoutRefusals(ui.owner.errors, 400, 1);
  ui.owner.errors.splice(0, ui.owner.errors.length, ...rest);
  expectNoConsoleErrors(ui.owner.errors);
});

test("at 390 px the prices fit the screen and stay usable", async () => {
  const { page, appId } = ui.owner;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/dashboard/apps/${appId}/prices`);
  await page.getByRole("link", { name: "Tip jar" }).waitFor();
  // A card per price: its name, amount, status and creation date.
  await expectCard(page, "Price Tip jar", ["Tip jar", /\$7\.50/, "active"]);
  assert.equal(await page.locator("main table").count(), 0, "cards, not a table");
  assert.equal(await fitsWidth(page, 390), true, "no horizontal scroll on the list");
  await expectAccessible(page);
  await page.getByRole("link", { name: "Tip jar" }).click();
  await page.getByRole("heading", { level: 1, name: "Tip jar" }).waitFor();
  assert.equal(await fitsWidth(page, 390), true, "no horizontal scroll on the price");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Edit price" }).click();
  await page.getByRole("dialog", { name: "Edit Tip jar" }).getByLabel("Name").waitFor();
  await expectAccessible(page);
  expectNoConsoleErrors(ui.owner.errors);
});
