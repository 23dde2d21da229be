import assert from "node:assert/strict";
import { test } from "node:test";
import { Secret, TOTP } from "otpauth";
import {
  expectAccessible,
  expectFitsWidth,
  expectNoConsoleErrors,
  newPage,
  useDashboard,
} from "../helpers/dashboard.ts";

// The account settings page (password, two-factor with its QR code and recovery codes, sessions),
// the two-factor sign-in it leads to, the forgot-password link, and the app's audit log page.
const ui = useDashboard();

const codeOf = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  });

test("an owner changes the password, turns on two-factor and signs in with a code", async () => {
  const { page, errors, email, password } = ui.owner;
  await page.getByRole("link", { name: "Account" }).click();
  await page.getByRole("heading", { level: 1, name: "Account settings" }).waitFor();
  const sessions = page.getByRole("region", { name: "Sessions" });
  await sessions.getByText("This session").waitFor();

  const next = `${password} renewed`;
  await page.getByLabel("Current password").fill(password);
  await page.getByLabel("New password").fill(next);
  await page.getByRole("button", { name: "Change the password" }).click();
  await page.getByText("Your other sessions have ended.").waitFor();

  await page.getByRole("button", { name: "Set up two-factor" }).click();
  await page.getByText("Scan this code with your authenticator app").waitFor();
  const qr = page.getByRole("region", { name: "Two-factor log-in" }).locator("svg");
  assert.equal(await qr.count(), 1, "the QR code is drawn");
  const secret = (await page.locator("code").first().textContent()) ?? "";
  assert.match(secret, /^[A-Z2-7]{32}$/);
  await page.getByLabel("Code from the app").fill(codeOf(secret));
  await page.getByRole("button", { name: "Turn on" }).click();
  const codes = page.getByLabel("Recovery codes").locator("code");
  await codes.first().waitFor();
  assert.equal(await codes.count(), 10);
  await expectAccessible(page);

  // A new browser signs in: the password, then a code.
  const other = await newPage(ui.dashboard);
  await other.page.goto("/dashboard/sign-in");
  assert.equal(await other.page.getByRole("link", { name: "Forgot your password?" }).isVisible(), true);
  await other.page.getByLabel("Email").fill(email);
  await other.page.getByLabel("Password").fill(next);
  await other.page.getByRole("button", { name: "Sign in" }).click();
  await other.page.getByLabel("Code").fill(codeOf(secret, 1));
  await other.page.getByRole("button", { name: "Verify" }).click();
  await other.page.getByRole("heading", { level: 1, name: "Apps" }).waitFor();
  // The password step's answer is a 401 by design (`two_factor_required`); the browser logs it.
  expectNoConsoleErrors(other.errors.filter((e) => !e.includes("status of 401")));
  await other.page.context().close();

  // The first page sees the new session and ends it.
  await page.reload();
  const end = sessions.getByRole("button", { name: /^End the session/ });
  await end.first().waitFor();
  await end.first().click();
  await sessions.getByRole("button", { name: /^End the session/ }).waitFor({ state: "detached" });
  expectNoConsoleErrors(errors);
});

test("the audit log page lists the app's changes and filters them", async () => {
  const { page, appId, errors } = ui.owner;
  await page.goto(`/dashboard/apps/${appId}`);
  await page.getByRole("navigation", { name: "App pages" }).getByRole("link", { name: "Audit log" }).click();
  await page.getByRole("heading", { level: 1, name: "Audit log" }).waitFor();
  await page.getByRole("cell", { name: "app.create" }).waitFor();
  await page.getByLabel("Action").fill("price.*");
  await page.getByRole("button", { name: "Filter" }).click();
  await page.getByText("No changes match.").waitFor();
  // The filters are in the address: a reload (or a shared link) shows the same view.
  assert.match(page.url(), /[?&]action=price\.\*/);
  await page.reload();
  await page.getByText("No changes match.").waitFor();
  assert.equal(await page.getByLabel("Action").inputValue(), "price.*");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Clear filters" }).click();
  await page.getByRole("cell", { name: "app.create" }).waitFor();
  assert.doesNotMatch(page.url(), /action=/);

  // On a phone each change is a card: action, time, target, who, from where.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/dashboard/apps/${appId}/audit-log?action=app.*`);
  const card = page.getByRole("article", { name: "Change app.create" });
  await card.waitFor();
  await card.getByText(/^User usr_/).waitFor();
  await expectFitsWidth(page, 390);
  await expectAccessible(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  expectNoConsoleErrors(errors);
});

test("the forgot-password page asks for a link and says where it went", async () => {
  const { page } = await newPage(ui.dashboard);
  await page.goto("/dashboard/forgot-password");
  await page.getByLabel("Email").fill(ui.owner.email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await page.getByText("Check your mail").waitFor();
  await page.context().close();
});
