import assert from "node:assert/strict";
import { test } from "node:test";
import { eventually } from "../helpers/contract.ts";
import { expectAccessible, expectNoConsoleErrors, useDashboard } from "../helpers/dashboard.ts";
import { fitsViewport, openAppPage } from "./chain-ui.ts";
import { accessibleDialog } from "./dialogs.ts";
import { expectCard } from "./phone.ts";

const ui = useDashboard();

/** The widget's status as a seller opening the link sees it. */
const widgetStatus = async (url: string) => (await fetch(url)).status;

test("an owner adds a seller, copies the widget link, refreshes it and deactivates the seller", async () => {
  const { page, appId, errors } = ui.owner;
  await openAppPage(page, ui.dashboard.base, appId, "sellers");
  await page.getByText("No sellers yet").waitFor();
  await expectAccessible(page);

  await page.getByLabel("Seller identifier").fill("seller-42");
  await page.getByLabel("Seller email (optional)").fill("ada@example.com");
  await page.getByRole("button", { name: "Add seller" }).click();
  const card = page.getByRole("article", { name: "Seller seller-42" });
  await card.waitFor();
  await card.getByText("pending", { exact: true }).waitFor();
  // What the seller still has to give, in words.
  await card.getByText("A bank account for payouts").waitFor();

  const link = card.getByRole("textbox", { name: "Widget link for seller-42", exact: true });
  const first = await link.inputValue();
  assert.ok(first.startsWith(`${ui.dashboard.base}/kyc/`), first);
  assert.equal(await widgetStatus(first), 200);
  await expectAccessible(page);

  // A new link: the old one stops working at once.
  await card.getByRole("button", { name: "Refresh link" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByText("The current link stops working at once").waitFor();
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Refresh link" }).click();
  await dialog.waitFor({ state: "detached" });
  const second = await eventually(async () => {
    const value = await link.inputValue();
    return value !== first ? value : undefined;
  });
  assert.equal(await widgetStatus(first), 404);
  assert.equal(await widgetStatus(second), 200);

  // Deactivated: marked so, and can be activated again.
  await card.getByRole("button", { name: "Deactivate" }).click();
  await (await accessibleDialog(page)).getByRole("button", { name: "Deactivate" }).click();
  await card.getByText("deactivated", { exact: true }).waitFor();
  await card.getByRole("button", { name: "Activate" }).waitFor();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expectCard(page, "Seller seller-42", ["seller-42", "deactivated"]);
  assert.ok(await fitsViewport(page), "the sellers page scrolls sideways at 390 px");
  await expectAccessible(page);
  expectNoConsoleErrors(errors);
});
