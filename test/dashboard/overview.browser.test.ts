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
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

// The overview: empty until the app takes a payment; then today's count, the success rate and the
// volume, computed from the payments list, with the charts loaded on demand.
let token: string;

const ui = useDashboard(
  {},
  {
    async setUp() {
      const login = await call(ui.dashboard.t, "POST", "/auth/login", {
        body: { email: ui.owner.email, password: ui.owner.password },
      });
      token = expectStatus(login, 200).token;
    },
  },
);

test("the overview is empty, then shows the payments' count, success rate and volume", async () => {
  const { page, appId, errors } = ui.owner;
  await page.goto(`/dashboard/apps/${appId}`);
  await page.getByText("No payments in the last 30 days.", { exact: false }).waitFor();
  await expectAccessible(page);

  const { t } = ui.dashboard;
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
  const narrow = await newPage(ui.dashboard, { width: 390 });
  await signIn(narrow.page, ui.owner.email, ui.owner.password);
  await narrow.page.goto(`/dashboard/apps/${ui.owner.appId}`);
  await narrow.page.getByRole("heading", { name: "Payments per day" }).waitFor();
  await expectAccessible(narrow.page);
  await expectFitsWidth(narrow.page, 390);
  expectNoConsoleErrors(narrow.errors);
});
