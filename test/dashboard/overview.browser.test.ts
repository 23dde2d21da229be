import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  type Dashboard,
  expectAccessible,
  expectFitsWidth,
  expectNoConsoleErrors,
  newOwnerPage,
  newPage,
  type OwnerPage,
  signIn,
  startDashboard,
} from "../helpers/dashboard.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

// The overview: empty until the app takes a payment; then today's count, the success rate and the
// volume, computed from the payments list, with the charts loaded on demand.
let dashboard: Dashboard;
let owner: OwnerPage;
let token: string;

before(async () => {
  dashboard = await startDashboard();
  owner = await newOwnerPage(dashboard);
  const login = await call(dashboard.t, "POST", "/auth/login", {
    body: { email: owner.email, password: owner.password },
  });
  token = expectStatus(login, 200).token;
});
after(async () => {
  await dashboard?.close();
});

test("the overview is empty, then shows the payments' count, success rate and volume", async () => {
  const { page, appId, errors } = owner;
  await page.goto(`/dashboard/apps/${appId}`);
  await page.getByText("No payments in the last 30 days.", { exact: false }).waitFor();
  await expectAccessible(page);

  const { t } = dashboard;
  const price = await createPrice(t, token, appId, { name: "Poster", amount: 10, currency: "usd" });
  const paid = await createPayment(t, token, appId, { price_id: price.id, payment_provider: "card" });
  expectStatus(await confirm(t, token, appId, paid.id, card(CARDS.ok)), 200);
  await waitForStatus(t, token, appId, paid.id, "paid");
  const dropped = await createPayment(t, token, appId, { price_id: price.id, payment_provider: "card" });
  expectStatus(await call(t, "POST", `/payments/${appId}/${dropped.id}/cancel`, { token, body: {} }), 200);
  const settled = expectStatus(await call(t, "GET", `/payments/${appId}/${paid.id}`, { token }), 200);

  await page.reload();
  const stat = (label: string) => page.locator("div").filter({ hasText: label }).last();
  await page.getByRole("heading", { name: "Volume per day" }).waitFor();
  assert.match(await stat("Payments, last 30 days").innerText(), /\b2\b/);
  assert.match(await stat("Success rate").innerText(), /50%/);
  const volume = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(
    settled.price_item.amount_total,
  );
  assert.ok((await stat("Volume in USD").innerText()).includes(volume), `volume ${volume}`);
  await page.getByRole("heading", { name: "Payments per day" }).waitFor();
  await page.getByText("USD: 2 payments", { exact: false }).waitFor();
  assert.ok((await page.locator(".recharts-surface").count()) >= 3, "three charts drawn");
  await expectAccessible(page);
  expectNoConsoleErrors(errors);
});

test("the overview works at 390 px", async () => {
  const narrow = await newPage(dashboard, { width: 390 });
  await signIn(narrow.page, owner.email, owner.password);
  await narrow.page.goto(`/dashboard/apps/${owner.appId}`);
  await narrow.page.getByRole("heading", { name: "Payments per day" }).waitFor();
  await expectAccessible(narrow.page);
  await expectFitsWidth(narrow.page, 390);
  expectNoConsoleErrors(narrow.errors);
});
