// The authorize job's last try (pg-boss's retries spent: the provider down for longer than the
// back-off) ends the payment `failed` with the reason and a webhook, rather than leaving it being
// authorised for ever (docs/payments.md, step 2). The provider's outage is the sandbox's switch;
// the last try is the job's own handler, given the retry count pg-boss would give it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { sql } from "drizzle-orm";
import type { AuthorizeJob } from "../../src/modules/payments/job-names.ts";
import { AUTHORIZE_RETRY_LIMIT, authorizeJob } from "../../src/modules/payments/pipeline/authorize.ts";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

let price: { id: string };
const fx = useTestApp(
  {},
  {
    async setUp() {
      price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { amount: 9 });
    },
  },
);

async function authorizeJobOf(paymentId: string): Promise<AuthorizeJob> {
  const result = await fx.app.deps.db.execute(
    sql`select data from pgboss.job where name = 'payments.authorize' and data->>'paymentId' = ${paymentId}`,
  );
  const rows = ((result as { rows?: unknown[] }).rows ?? result) as { data: AuthorizeJob }[];
  return rows[0].data;
}

test("a provider down through every retry: failed with the reason, announced; a try before the last is retried", async () => {
  const { app, owner } = fx.tenants;
  const payment = await createPayment(fx.app, owner.token, app.id, {
    price_id: price.id,
    payment_provider: "card",
  });
  const sandbox = fx.app.deps.paymentProviders.sandbox;
  await sandbox.setOutage(true);
  try {
    expectStatus(await confirm(fx.app, owner.token, app.id, payment.id, card(CARDS.ok)), 200);
    const data = await eventually(() => authorizeJobOf(payment.id).catch(() => undefined));
    const handle = authorizeJob(fx.app.deps).handle;
    await assert.rejects(handle(data, { id: "early", retryCount: AUTHORIZE_RETRY_LIMIT - 1 }), {
      code: "provider_unavailable",
    });
    const waiting = expectStatus(
      await call(fx.app, "GET", `/payments/${app.id}/${payment.id}`, { token: owner.token }),
      200,
    );
    assert.equal(waiting.status, "pending", "a try before the last leaves it to the next");
    await handle(data, { id: "last", retryCount: AUTHORIZE_RETRY_LIMIT });
  } finally {
    await sandbox.setOutage(false);
  }
  const failed = await waitForStatus(fx.app, owner.token, app.id, payment.id, "failed");
  assert.equal(failed.transaction_response.error.code, "provider_unavailable");
  assert.match(failed.transaction_response.error.message, /gave up after 9 tries; nothing was captured/);
  assert.equal(failed.cancelable, false);
  const events = expectStatus(
    await call(fx.app, "GET", `/payments/${app.id}/${payment.id}/events`, { token: owner.token }),
    200,
  );
  const list = Array.isArray(events) ? events : events.data;
  assert.deepEqual(
    list.map((e: { to_status: string }) => e.to_status),
    ["pending", "failed"],
  );
});
