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
import { call, expectStatus } from "../helpers/http.ts";
import { png } from "../helpers/images.ts";
import { accessibleDialog } from "./dialogs.ts";

// Accounts and apps in the console: a new user signs up, creates an app and finds it listed with the
// test-mode badge in the header; changes its settings; signs out and in; deletes the app behind a
// confirmation. Every page runs under the console's strict CSP with no console error.

const ui = useDashboard();

async function appOnApi(appId: string) {
  const login = await call(ui.dashboard.t, "POST", "/auth/login", {
    body: { email: ui.owner.email, password: ui.owner.password },
  });
  const token = expectStatus(login, 200).token;
  return call(ui.dashboard.t, "GET", `/apps/${appId}`, { token });
}

test("a new user signs up, creates an app and sees it listed, in test mode", async () => {
  const { page, appName, appId, errors } = ui.owner;
  assert.match(appId, /^app_/);
  await page.getByRole("link", { name: appName }).waitFor();
  assert.equal(await page.getByRole("banner").getByText("Test mode").isVisible(), true);
  await expectAccessible(page);
  await page.getByRole("button", { name: "Create app" }).click();
  const create = await accessibleDialog(page, "Create an app");
  await create.getByRole("button", { name: "Cancel" }).click();
  await create.waitFor({ state: "hidden" });
  // Signed in already: the sign-in page goes straight back to the apps.
  await page.goto("/dashboard/sign-in");
  await page.getByRole("link", { name: appName }).waitFor();
  expectNoConsoleErrors(errors);
});

test("the app's settings are changed and saved", async () => {
  const { page, appId, errors } = ui.owner;
  await page.getByRole("link", { name: ui.owner.appName }).click();
  await page.getByRole("heading", { level: 1, name: "Overview" }).waitFor();
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
  await expectAccessible(page);

  await page.getByLabel("App name").fill("Renamed shop");
  await page.getByText("Marketplace", { exact: true }).click();
  await page.getByLabel("Marketplace fee (%)").fill("2.5");
  await page.getByLabel("KYC return URL").fill("https://shop.example.com/kyc-done");
  await page.getByLabel("Link payments to the chain's explorer").check({ force: true });
  await page.getByRole("button", { name: "Save settings" }).click();
  await page.getByText("Settings saved").waitFor();

  const saved = expectStatus(await appOnApi(appId), 200);
  assert.equal(saved.name, "Renamed shop");
  assert.equal(saved.type, "marketplace");
  assert.equal(saved.app_fee, 2.5);
  assert.equal(saved.kyc_return_url, "https://shop.example.com/kyc-done");
  assert.equal(saved.use_explorer, true);
  expectNoConsoleErrors(errors);
});

test("the app's look on hosted pages: display name, accent colour and icon", async () => {
  const { page, appId, errors } = ui.owner;
  await page.goto(`/dashboard/apps/${appId}/settings`);
  await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
  await page.getByLabel("Display name").fill("Ada's Records");
  await page.getByLabel("Accent colour").fill("#0B7A75");
  await page.getByRole("button", { name: "Save look" }).click();
  await page.getByText("Look saved").waitFor();
  // A file the API would refuse is refused before it is sent.
  const file = page.locator('input[type="file"]');
  await file.setInputFiles({ name: "logo.gif", mimeType: "image/gif", buffer: Buffer.from("GIF89a") });
  await page.getByText("Choose a PNG, JPEG or WebP image.").waitFor();
  await file.setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png(16) });
  await page.getByRole("button", { name: "Upload icon" }).click();
  await page.getByText("Icon uploaded").waitFor();
  await page.getByRole("img", { name: /icon/ }).waitFor();
  await expectAccessible(page);

  const saved = expectStatus(await appOnApi(appId), 200);
  assert.equal(saved.display_name, "Ada's Records");
  assert.equal(saved.accent_color, "#0b7a75");
  assert.match(saved.icon_url, new RegExp(`/apps/${appId}/icon\\?v=`));
  await page.getByRole("button", { name: "Remove icon" }).click();
  await page.getByText("Icon removed").waitFor();
  assert.equal(expectStatus(await appOnApi(appId), 200).icon_url, null);
  expectNoConsoleErrors(errors);
});

test("an app that does not exist shows the service's problem", async () => {
  const { page, errors } = ui.owner;
  await page.goto("/dashboard/apps/app_00000000000000000000000000/settings");
  const alert = page.getByRole("alert");
  await alert.waitFor();
  // In words, never the machine code (components/errors.ts).
  assert.match(await alert.innerText(), /This no longer exists, or isn't yours to see/);
  assert.doesNotMatch(await alert.innerText(), /not_found/);
  // The failed call itself is the only console error (the browser reports every 404 it fetches).
  assert.ok(
    errors.every((error) => error.includes("404")),
    errors.join("\n"),
  );
  errors.length = 0;
});

test("a session ended elsewhere sends the page back to the sign-in form", async () => {
  const { page, appId } = ui.owner;
  const other = await newPage(ui.dashboard);
  await signIn(other.page, ui.owner.email, ui.owner.password);
  const stored = await other.page.evaluate(() => sessionStorage.getItem("payments-dashboard.session"));
  const { token } = JSON.parse(stored ?? "{}");
  assert.ok(token, "the session is kept in sessionStorage");
  expectStatus(await call(ui.dashboard.t, "POST", "/auth/logout", { token }), 204);
  await other.page.goto(`/dashboard/apps/${appId}/settings`);
  await other.page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
  // The session of the first page is another one, still valid.
  await page.goto(`/dashboard/apps/${appId}/settings`);
  await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
});

test("sign out, sign in at 390 px, and delete the app behind a confirmation", async () => {
  const { page, appId } = ui.owner;
  await page.goto("/dashboard/");
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
  assert.equal(await page.evaluate(() => sessionStorage.length), 0, "the session is forgotten");
  await page.goto(`/dashboard/apps/${appId}/settings`);
  await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();

  const narrow = await newPage(ui.dashboard, { width: 390 });
  await signIn(narrow.page, ui.owner.email, ui.owner.password);
  await expectAccessible(narrow.page);
  await narrow.page.getByRole("link", { name: "Renamed shop" }).click();
  await narrow.page.getByRole("button", { name: "Menu" }).click();
  await narrow.page.getByRole("link", { name: "Settings" }).click();
  await narrow.page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
  await expectAccessible(narrow.page);
  await expectFitsWidth(narrow.page, 390);

  await narrow.page.getByRole("button", { name: "Delete app" }).click();
  const dialog = await accessibleDialog(narrow.page, "Delete Renamed shop?");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  // Gone before the page's own "Delete app" is clicked again: while it closes, its button shares the name.
  await dialog.waitFor({ state: "hidden" });
  assert.equal((await appOnApi(appId)).status, 200, "cancel keeps the app");
  await narrow.page.getByRole("button", { name: "Delete app" }).click();
  await dialog.getByRole("button", { name: "Delete app" }).click();
  await narrow.page.getByText("No apps yet.", { exact: false }).waitFor();
  assert.equal((await appOnApi(appId)).status, 404, "deleted");
  expectNoConsoleErrors(narrow.errors);
});
