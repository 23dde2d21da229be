// GET /balances/{app_id}/history: each UTC day's closing balances, per currency, for a chart. A
// payment is paid today and partly refunded two days later (the service's clock moved on): the days
// before hold nothing, the day of the capture and the next hold its share, the last day holds what
// GET /balances answers now.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FakeClock } from "../helpers/clock.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { CARDS, card, confirm, waitForStatus } from "../helpers/payments.ts";

const clock = new FakeClock();
const fx = useTestApp({}, { now: clock.now });

const DAY_MS = 24 * 3600 * 1000;
const utcDay = (date: Date) => date.toISOString().slice(0, 10);

const history = async (query: string, token?: string) =>
  call(fx.app, "GET", `/balances/${fx.tenants.app.id}/history${query}`, {
    token: token ?? (await fx.key()),
  });

test("each day closes on the balances of its entries; today's is the balance now", async () => {
  const key = await fx.key();
  const appId = fx.tenants.app.id;
  const price = expectStatus(
    await call(fx.app, "POST", `/prices/${appId}`, {
      token: key,
      body: { name: "Print", amount: 40, currency: "usd" },
    }),
    201,
  );
  const created = expectStatus(
    await call(fx.app, "POST", `/payments/${appId}`, {
      token: key,
      body: { price_id: price.id, payment_provider: "card" },
    }),
    201,
  );
  expectStatus(await confirm(fx.app, key, appId, created.id, card(CARDS.ok)), 200);
  await waitForStatus(fx.app, key, appId, created.id, "paid");
  const paidDay = utcDay(clock.now());
  const afterCapture = expectStatus(await call(fx.app, "GET", `/balances/${appId}`, { token: key }), 200)
    .balances[0];
  assert.notEqual(afterCapture.available, "0");

  clock.advance(2 * DAY_MS);
  expectStatus(
    await call(fx.app, "POST", `/payments/${appId}/${created.id}/refund`, {
      token: key,
      body: { amount: "10" },
    }),
    200,
  );
  const now = expectStatus(await call(fx.app, "GET", `/balances/${appId}`, { token: key }), 200).balances[0];
  assert.notEqual(now.available, afterCapture.available, "the refund took back part of the app's share");

  const answer = expectStatus(await history("?days=5"), 200);
  assert.equal(answer.object, "balance_history");
  assert.equal(answer.from, `${utcDay(new Date(clock.now().getTime() - 4 * DAY_MS))}T00:00:00.000Z`);
  assert.equal(answer.currencies.length, 1);
  const [usd] = answer.currencies;
  assert.equal(usd.currency, "usd");
  assert.deepEqual(
    usd.days.map((d: { date: string }) => d.date),
    [4, 3, 2, 1, 0].map((back) => utcDay(new Date(clock.now().getTime() - back * DAY_MS))),
    "every day, oldest first, today last",
  );
  const figures = (d: Record<string, string>) => [d.available, d.pending, d.owed_to_sellers];
  const byDate = new Map(usd.days.map((d: Record<string, string>) => [d.date, figures(d)]));
  const before = usd.days.filter((d: { date: string }) => d.date < paidDay);
  assert.equal(before.length, 2);
  for (const day of before) assert.deepEqual(figures(day), ["0", "0", "0"], `${day.date} had nothing`);
  assert.deepEqual(byDate.get(paidDay), figures(afterCapture), "the capture's day closes on its share");
  assert.deepEqual(
    byDate.get(utcDay(new Date(Date.parse(paidDay) + DAY_MS))),
    figures(afterCapture),
    "a day without entries keeps the day before's balance",
  );
  assert.deepEqual(figures(usd.days.at(-1)), figures(now), "today closes on the balance now");

  // A window that starts after the capture opens on it: entries before the first day still count.
  const short = expectStatus(await history("?days=1"), 200);
  assert.deepEqual(figures(short.currencies[0].days[0]), figures(now));
  const month = expectStatus(await history(""), 200);
  assert.equal(month.currencies[0].days.length, 30, "30 days unless asked");
});

test("the window's bounds, who may read it, and another app's books", async () => {
  for (const days of ["0", "367", "2.5", "x"]) {
    const problem = assertProblem(await history(`?days=${days}`), 400, "validation_failed");
    assert.equal(problem.errors[0].path, "/query/days");
  }
  assertProblem(await history("?from=2026-01-01"), 400, "validation_failed");
  expectStatus(await history("?days=366", fx.tenants.developer.token), 200);
  assertProblem(await history("", fx.tenants.outsider.token), 404, "not_found");
  const empty = expectStatus(
    await call(fx.app, "GET", `/balances/${fx.tenants.otherApp.id}/history`, {
      token: fx.tenants.outsider.token,
    }),
    200,
  );
  assert.deepEqual(empty.currencies, [], "an app with no books has no currencies");
});
