import assert from "node:assert/strict";
import { test } from "node:test";
import {
  expectAccessible,
  expectFitsWidth,
  expectNoConsoleErrors,
  newPage,
  signIn,
  useDashboard,
} from "../helpers/dashboard.ts";
import { call } from "../helpers/http.ts";
import { accessibleDialog } from "./dialogs.ts";
import { expectCard } from "./phone.ts";

// API keys in the console: a key is shown once with a copy button, listed by its prefix, works
// against the API, is renamed in place, and stops working when revoked behind a confirmation.

const ui = useDashboard();

test("a key is created and shown once, listed, then revoked", async () => {
  const { page, appId, errors } = ui.owner;
  await page.goto(`/dashboard/apps/${appId}/api-keys`);
  await page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
  await page.getByText("No API keys yet.", { exact: false }).waitFor();
  await expectAccessible(page);

  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = await accessibleDialog(page, "Create an API key");
  await dialog.getByLabel("Key name").fill("production server");
  await dialog.getByRole("button", { name: "Create key" }).click();
  const secret = dialog.getByRole("textbox", { name: "Secret key" });
  await secret.waitFor();
  const key = await secret.inputValue();
  assert.match(key, /^sk_test_/, "test mode keys");
  assert.equal(await dialog.getByRole("button", { name: "Copy Secret key" }).isVisible(), true);
  await expectAccessible(page);
  assert.equal(
    (await call(ui.dashboard.t, "GET", `/prices/${appId}`, { token: key })).status,
    200,
    "the key works",
  );

  await dialog.getByRole("button", { name: "Done" }).click();
  const row = page.getByRole("row").filter({ hasText: "production server" });
  await row.getByText("Active").waitFor();
  assert.equal(await page.getByText(key).count(), 0, "the key is not shown again");
  assert.ok((await row.innerText()).includes(key.slice(0, 12)), "listed by its prefix");

  // Renamed in place: the label changes, the key keeps working.
  await row.getByRole("button", { name: "Rename production server" }).click();
  const rename = page.getByRole("dialog", { name: "Rename production server" });
  assert.equal(await rename.getByLabel("Key name").inputValue(), "production server");
  await expectAccessible(page);
  await rename.getByLabel("Key name").fill("checkout server");
  await rename.getByRole("button", { name: "Save name" }).click();
  await rename.waitFor({ state: "hidden" });
  const renamed = page.getByRole("row").filter({ hasText: "checkout server" });
  await renamed.getByText("Active").waitFor();
  assert.equal(
    (await call(ui.dashboard.t, "GET", `/prices/${appId}`, { token: key })).status,
    200,
    "the renamed key still works",
  );

  await renamed.getByRole("button", { name: "Revoke" }).click();
  await (await accessibleDialog(page, "Revoke checkout server?"))
    .getByRole("button", { name: "Revoke key" })
    .click();
  await renamed.getByText("Revoked").waitFor();
  assert.equal(
    (await call(ui.dashboard.t, "GET", `/prices/${appId}`, { token: key })).status,
    401,
    "revoked",
  );
  expectNoConsoleErrors(errors);
});

test("the keys page works at 390 px", async () => {
  const narrow = await newPage(ui.dashboard, { width: 390 });
  await signIn(narrow.page, ui.owner.email, ui.owner.password);
  await narrow.page.goto(`/dashboard/apps/${ui.owner.appId}/api-keys`);
  // A card per key: its name, prefix, status and creation date; its actions within reach.
  const card = await expectCard(narrow.page, "API key checkout server", [
    "checkout server",
    /^sk_test_/,
    "Revoked",
  ]);
  await card.getByRole("button", { name: "Rename checkout server" }).waitFor();
  assert.equal(await narrow.page.locator("main table").count(), 0, "cards, not a table");
  await expectAccessible(narrow.page);
  await expectFitsWidth(narrow.page, 390);
  expectNoConsoleErrors(narrow.errors);
});
