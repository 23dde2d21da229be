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
import { createPrice, openPayment, sessionToken } from "./payments-fixtures.ts";

// The console when things go wrong, and on a phone: a page whose code cannot load keeps the shell
// and recovers by itself once the service answers again; errors read as sentences, never as codes;
// the brand is the service's own name, never a page's; a phone shows payments as cards.

const ui = useDashboard({ SERVICE_NAME: "Acme Pay Console" });

test("with the service out of reach a lazily loaded page keeps the shell, and recovers when it returns", async () => {
  const { page: owner, email, password, appId } = ui.owner;
  // A fresh page, so no page's code is in the browser's cache yet.
  const { page, errors } = await newPage(ui.dashboard);
  await signIn(page, email, password);
  await page.goto(`/dashboard/apps/${appId}/members`);
  await page.getByRole("heading", { level: 1, name: "Members" }).waitFor();

  // The service goes away: every request fails as an unplugged cable would.
  await page.route("**/*", (route) => route.abort("connectionrefused"));
  await page.getByRole("navigation", { name: "App pages" }).getByRole("link", { name: "Prices" }).click();
  await page.getByRole("heading", { level: 1, name: "This page could not be shown" }).waitFor();
  await page.getByRole("alert").getByText("We can't reach the service").waitFor();
  // The shell stays: its navbar and brand still lead elsewhere.
  await page.getByRole("navigation", { name: "App pages" }).getByRole("link", { name: "Payments" }).waitFor();
  await page.getByRole("link", { name: "Back to your apps" }).waitFor();
  assert.equal(await page.getByText("Unexpected Application Error").count(), 0);

  // The service is back: the page loads by itself, no click needed.
  await page.unroute("**/*");
  await page.getByRole("heading", { level: 1, name: "Prices" }).waitFor({ timeout: 15_000 });
  await expectAccessible(page);
  // The only console errors are the refused requests themselves.
  assert.ok(
    errors.every((line) => /ERR_CONNECTION_REFUSED|Failed to fetch|dynamically imported/.test(line)),
    errors.join("\n"),
  );
  await page.context().close();
  expectNoConsoleErrors(ui.owner.errors);
  void owner;
});

test("a failed call reads as a sentence, with Try again only where it can help", async () => {
  const { page, appId } = ui.owner;
  await page.goto(`/dashboard/apps/${appId}/payments/pay_doesnotexist0000000000`);
  const alert = page.getByRole("alert");
  await alert.getByText("This no longer exists, or isn't yours to see").waitFor();
  const text = (await alert.textContent()) ?? "";
  assert.doesNotMatch(text, /not_found|Something went wrong/, "no machine code, no shrug");
  assert.equal(
    await alert.getByRole("button", { name: "Try again" }).count(),
    0,
    "trying a 404 again cannot help",
  );
  await expectAccessible(page);
});

test("the header's brand is the service's name, and no nav item shares it", async () => {
  const { page, appId } = ui.owner;
  await page.goto(`/dashboard/apps/${appId}/payments`);
  await page.getByRole("link", { name: "Acme Pay Console", exact: true }).waitFor();
  assert.equal(
    await page.getByRole("link", { name: "Payments", exact: true }).count(),
    1,
    "only the nav item",
  );
  // Test mode: the mails the service "sends" are a link away.
  const inbox = page.getByRole("link", { name: "Sandbox inbox" });
  assert.equal(await inbox.getAttribute("href"), "/sandbox/mail/inbox");
});

test("on a 390 px phone payments are cards with amount, status, id and date, nothing cut", async () => {
  const { email, password, appId } = ui.owner;
  const { t } = ui.dashboard;
  const token = await sessionToken(ui.owner.page);
  const price = await createPrice(t, token, appId, { name: "Mug", amount: 12 });
  const payment = await openPayment(t, token, appId, {
    price_id: price.id,
    shopper_email: "phone@example.com",
  });

  const { page } = await newPage(ui.dashboard, { width: 390 });
  await signIn(page, email, password);
  await page.goto(`/dashboard/apps/${appId}/payments`);
  const card = page.getByRole("article", { name: `Payment ${payment.id}` });
  await card.waitFor();
  await card.getByText("pending").waitFor();
  await card.getByText(/\$12\.\d\d/).waitFor();
  await card.getByText(/phone@example\.com/).waitFor();
  await card.locator("time").waitFor();
  const link = card.getByRole("link", { name: payment.id });
  const box = await link.boundingBox();
  assert.ok(box && box.height >= 44, `the id is a touch target of at least 44 px (${box?.height})`);
  await expectFitsWidth(page, 390);
  await expectAccessible(page);

  // The header fits too: nothing in it runs past the screen's edge or under its neighbour, and
  // the account and sign-out, with no room there, are in the menu.
  const header = page.getByRole("banner");
  let right = 0;
  for (const control of await header
    .locator("a:visible, button:visible, input:visible, .mantine-Badge-root:visible")
    .all()) {
    const box = await control.boundingBox();
    assert.ok(box, "a visible control has a box");
    assert.ok(box.x >= right - 1, `${await control.textContent()} starts after its neighbour ends`);
    assert.ok(box.x + box.width <= 390, `${await control.textContent()} ends within 390 px`);
    right = box.x + box.width;
  }
  await page.getByRole("button", { name: "Menu" }).click();
  const menu = page.getByRole("navigation", { name: "App pages" });
  await menu.getByRole("link", { name: "Account" }).waitFor();
  await menu.getByRole("button", { name: "Sign out" }).waitFor();
  await page.screenshot({ path: "/tmp/shot-menu.png" });
  await expectAccessible(page);
  await page.context().close();
});
