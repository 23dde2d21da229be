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
// net volume, computed from the payments list (a refunded payment is neither a success nor
// volume; a partial refund takes its part off the volume), with the charts loaded on demand.
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

test("the overview is empty, then counts payments, success and net volume, refunds left out", async () => {
  const { page, appId, errors } = ui.owner;
  await page.goto(`/dashboard/apps/${appId}`);
  await page.getByText("No payments in the last 30 days.", { exact: false }).waitFor();
  await expectAccessible(page);

  const { t } = ui.dashboard;
  const price = await createPrice(t, token, appId, { name: "Poster", amount: 10, currency: "usd" });
  const paidOne = async () => {
    const payment = await createPayment(t, token, appId, { price_id: price.id, payment_provider: "card" });
    expectStatus(await confirm(t, token, appId, payment.id, card(CARDS.ok)), 200);
    return waitForStatus(t, token, appId, payment.id, "paid");
  };
  const kept = await paidOne();
  const dropped = await createPayment(t, token, appId, { price_id: price.id, payment_provider: "card" });
  expectStatus(await call(t, "POST", `/payments/${appId}/${dropped.id}/cancel`, { token, body: {} }), 200);

  await page.reload();
  const stat = (label: string) => page.locator("div").filter({ hasText: label }).last();
  const usd = (amount: number) =>
    new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(amount);
  await page.getByRole("heading", { name: "Net volume per day" }).waitFor();
  assert.match(await stat("Payments, last 30 days").innerText(), /\b2\b/);
  assert.match(await stat("Success rate").innerText(), /50%/);
  const total = kept.price_item.amount_total;
  assert.ok((await stat("Net volume in USD").innerText()).includes(usd(total)), `volume ${usd(total)}`);
  await page.getByRole("heading", { name: "Payments per day" }).waitFor();
  await page.getByText("USD: 2 payments", { exact: false }).waitFor();
  assert.ok((await page.locator(".recharts-surface").count()) >= 3, "three charts drawn");
  await expectAccessible(page);

  // A partial refund lowers the volume and stays a success; a whole refund is neither.
  expectStatus(
    await call(t, "POST", `/payments/${appId}/${kept.id}/refund`, { token, body: { amount: "4" } }),
    200,
  );
  const returned = await paidOne();
  expectStatus(await call(t, "POST", `/payments/${appId}/${returned.id}/refund`, { token, body: {} }), 200);
  await page.reload();
  await page.getByRole("heading", { name: "Net volume per day" }).waitFor();
  assert.match(await stat("Payments, last 30 days").innerText(), /\b3\b/);
  assert.match(await stat("Success rate").innerText(), /33\.3%/, "one kept of three finished");
  const net = Math.round((total - 4) * 100) / 100;
  assert.ok((await stat("Net volume in USD").innerText()).includes(usd(net)), `net volume ${usd(net)}`);
  const refunded = Math.round((4 + returned.price_item.amount_total) * 100) / 100;
  const refundStat = await stat("Refunded in USD").innerText();
  assert.ok(refundStat.includes(usd(refunded)), `refunded ${usd(refunded)}: ${refundStat}`);
  assert.match(refundStat, /1 refunded in full/);
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
