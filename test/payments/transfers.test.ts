import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import { asc, eq, sql } from "drizzle-orm";
import { applyAccount } from "../../src/modules/kyc/sync.ts";
import { settleJob } from "../../src/modules/payments/settle.ts";
import { paymentEvents } from "../../src/modules/payments/tables.ts";
import { failureOf, retryDelaySeconds, SETTLE_RETRY } from "../../src/modules/payments/transfers.ts";
import { AppError } from "../../src/platform/http/errors.ts";
import { SandboxKycProvider } from "../../src/platform/providers/kyc/sandbox.ts";
import { providerUnavailable, TransferRefusedError } from "../../src/platform/providers/payments/types.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { createKyc, eventually, kycFixture, onboardSeller } from "../helpers/kyc.ts";
import { CARDS, card, confirm, waitForStatus } from "../helpers/payments.ts";
import { Receiver } from "../helpers/webhooks.ts";

// How a marketplace payment's transfer fails, says why, backs off and comes back. The seller is
// onboarded through the widget's forms; the provider's refusals come from the sandbox's own state.

let tenant: Awaited<ReturnType<typeof kycFixture>>;
let receiver: Receiver;
let kyc: SandboxKycProvider;

const fx = useTestApp(
  {
    SECRETS_MASTER_KEY: randomBytes(32).toString("base64"),
    WEBHOOKS_ALLOW_LOOPBACK: "true",
  },
  {
    tenants: false,
    async setUp() {
      tenant = await kycFixture(fx.app);
      receiver = new Receiver();
      expectStatus(
        await call(fx.app, "POST", `/webhooks/${tenant.app.id}`, {
          token: tenant.owner.token,
          body: { url: await receiver.start(), events: ["payment.*"] },
        }),
        201,
      );
      kyc = new SandboxKycProvider(fx.app.deps.db);
    },
    async tearDown() {
      await receiver?.stop();
    },
  },
);

const api = (method: string, url: string, body?: unknown) =>
  call(fx.app, method, url, { token: tenant.apiKey, body });
const payment = async (id: string) => expectStatus(await api("GET", `/payments/${tenant.app.id}/${id}`), 200);

async function sellerPrice(identifier: string) {
  const seller = await onboardSeller(fx.app, tenant.app.id, tenant.apiKey, identifier);
  const price = expectStatus(
    await api("POST", `/prices/${tenant.app.id}`, {
      name: "Print",
      amount: 40,
      currency: "usd",
      kyc_id: seller.id,
    }),
    201,
  );
  return { seller, price };
}

async function paidFor(priceId: string) {
  return expectStatus(
    await api("POST", `/payments/${tenant.app.id}`, { price_id: priceId, payment_provider: "card" }),
    201,
  );
}

/** The seller's account as the provider reports it now, mirrored onto the record (what a provider webhook does). */
async function mirror(kycId: string, accountId: string) {
  const account = await kyc.retrieveAccount(accountId);
  await fx.app.deps.db.transaction((tx) =>
    applyAccount(fx.app.deps, tx, kycId, account, { now: new Date(), actionDone: false }),
  );
}

const settleJobs = async (paymentId: string) => {
  const result = await fx.app.deps.db.execute(
    sql`select data, state, start_after from pgboss.job where name = 'payments.settle' and data->>'paymentId' = ${paymentId}
      order by created_on`,
  );
  return ((result as { rows?: unknown[] }).rows ?? result) as {
    data: { attempt?: number; retryAt?: string };
    state: string;
    start_after: Date;
  }[];
};

describe("failures are classified", () => {
  test("refusals are permanent, outages and unknown errors transient; the back-off numbers", () => {
    const refused = failureOf(new TransferRefusedError("insufficient_capabilities_for_transfer", "no"));
    assert.deepEqual(refused, {
      code: "insufficient_capabilities_for_transfer",
      message: "no",
      refused: true,
      permanent: true,
    });
    assert.equal(failureOf(new AppError("validation_failed", "bad")).permanent, true);
    assert.equal(failureOf(new AppError("idempotency_key_reused", "x")).refused, false);
    assert.equal(failureOf(providerUnavailable("down")).permanent, false);
    const dropped = failureOf(new Error("socket hang up at 10.0.0.7"));
    assert.equal(dropped.permanent, false);
    assert.doesNotMatch(dropped.message, /10\.0\.0\.7/, "internals stay in the log");
    const delays = Array.from({ length: SETTLE_RETRY.tries - 1 }, (_, i) => retryDelaySeconds(i));
    assert.deepEqual(delays, [30, 60, 120, 240, 480, 960, 1920, 3600, 3600]);
  });
});

describe("a seller who loses payouts between the hold and the transfer", () => {
  test("the payment stops at failed-transfers with the reason, and resumes when payouts are back", async () => {
    const { seller, price } = await sellerPrice("seller-paused");
    const created = await paidFor(price.id);
    // The provider pauses the seller's payouts after the payment was opened, and reports it.
    await kyc.pausePayouts(seller.account_id, true, "pause-paused");
    await mirror(seller.id, seller.account_id);
    assert.equal(
      (await api("GET", `/apps/${tenant.app.id}/kycs/${seller.id}`)).body.data.payouts_enabled,
      false,
    );
    expectStatus(await confirm(fx.app, tenant.apiKey, tenant.app.id, created.id, card(CARDS.ok)), 200);
    const failed = await waitForStatus(fx.app, tenant.apiKey, tenant.app.id, created.id, "failed-transfers");
    assert.equal(failed.transaction_response.error.code, "insufficient_capabilities_for_transfer");
    assert.match(failed.transaction_response.error.message, /cannot receive transfers/);
    assert.equal(failed.transaction_response.error.retry_at, null, "permanent: no automatic try");

    const events = await fx.app.deps.db
      .select()
      .from(paymentEvents)
      .where(eq(paymentEvents.paymentId, created.id))
      .orderBy(asc(paymentEvents.createdAt), asc(paymentEvents.id));
    const last = events.at(-1)!;
    assert.equal(`${last.fromStatus}->${last.toStatus}`, "paid->failed-transfers");
    assert.match(last.reason, /insufficient_capabilities_for_transfer/);
    const hook = await eventually(async () =>
      receiver.received
        .map((r) => JSON.parse(r.body))
        .find((e) => e.type === "payment.failed-transfers" && e.data.id === created.id),
    );
    assert.match(hook.data.reason, /cannot receive transfers/);
    const warning = fx.app.logs
      .flatMap((chunk) => chunk.split("\n").filter(Boolean))
      .map((line) => JSON.parse(line))
      .find((l) => l.msg === "seller transfer failed" && l.payment_id === created.id);
    assert.equal(warning?.level, 40, "a warning");
    assert.equal(warning.code, "insufficient_capabilities_for_transfer");
    assert.equal(warning.permanent, true);
    assert.equal((await settleJobs(created.id)).length, 1, "nothing scheduled after a refusal");

    // Retry while still paused: the same answer, still nothing paid to anyone.
    expectStatus(await api("POST", `/payments/${tenant.app.id}/${created.id}/retry`), 200);
    await eventually(async () =>
      (await settleJobs(created.id)).every((j) => j.state === "completed") ? true : undefined,
    );
    assert.equal((await payment(created.id)).status, "failed-transfers");
    const none = expectStatus(
      await call(fx.app, "GET", `/sandbox/v1/transfers?transfer_group=${created.id}`),
      200,
    );
    assert.deepEqual(none.data, []);

    // Payouts back at the provider, reported to the record: the transfer goes through by itself.
    await kyc.pausePayouts(seller.account_id, false, "resume-paused");
    await mirror(seller.id, seller.account_id);
    const paid = await waitForStatus(fx.app, tenant.apiKey, tenant.app.id, created.id, "paid");
    assert.equal(paid.transaction_response.error, null);
    const [transfer] = expectStatus(
      await call(fx.app, "GET", `/sandbox/v1/transfers?transfer_group=${created.id}`),
      200,
    ).data;
    assert.equal(transfer.destination, seller.account_id);
    assert.equal(transfer.amount, Math.round(paid.price_item.amount_seller * 100));
  });
});

describe("transient failures back off, with a limit", () => {
  test("an outage at transfer time schedules the next try; retry overtakes it; the last try gives up", async () => {
    const { seller, price } = await sellerPrice("seller-outage");
    const created = await paidFor(price.id);
    await kyc.pausePayouts(seller.account_id, true, "pause-outage");
    expectStatus(await confirm(fx.app, tenant.apiKey, tenant.app.id, created.id, card(CARDS.ok)), 200);
    await waitForStatus(fx.app, tenant.apiKey, tenant.app.id, created.id, "failed-transfers");
    // Payouts back (not yet reported), but the provider is down when the app retries.
    await kyc.pausePayouts(seller.account_id, false, "resume-outage");
    await fx.app.deps.paymentProviders.sandbox.setOutage(true);
    let scheduled: string;
    try {
      expectStatus(await api("POST", `/payments/${tenant.app.id}/${created.id}/retry`), 200);
      const failed = await eventually(async () => {
        const now = await payment(created.id);
        return now.transaction_response.error.code === "provider_unavailable" ? now : undefined;
      });
      assert.equal(failed.status, "failed-transfers");
      scheduled = failed.transaction_response.error.retry_at;
      const wait = (Date.parse(scheduled) - Date.parse(failed.updated_at)) / 1000;
      assert.ok(wait >= 29 && wait <= 31, `the first back-off is 30 s, was ${wait}`);
      const jobs = await settleJobs(created.id);
      const next = jobs.find((j) => j.data.retryAt === scheduled);
      assert.equal(next?.data.attempt, 1);
      assert.equal(next?.state, "created");
      assert.ok(new Date(next.start_after).getTime() >= Date.parse(scheduled) - 1000);

      // The last try fails the same way: given up, nothing more scheduled.
      const before = (await settleJobs(created.id)).length;
      await settleJob(fx.app.deps).handle(
        { paymentId: created.id, attempt: SETTLE_RETRY.tries - 1, retryAt: scheduled },
        { id: "last", retryCount: 0 },
      );
      const gaveUp = await payment(created.id);
      assert.equal(gaveUp.transaction_response.error.code, "provider_unavailable");
      assert.equal(gaveUp.transaction_response.error.retry_at, null);
      assert.match(gaveUp.transaction_response.error.message, /gave up after 10 tries/);
      assert.equal((await settleJobs(created.id)).length, before);
    } finally {
      await fx.app.deps.paymentProviders.sandbox.setOutage(false);
    }
    // The try scheduled earlier was overtaken: it does nothing.
    await settleJob(fx.app.deps).handle(
      { paymentId: created.id, attempt: 1, retryAt: scheduled },
      { id: "x", retryCount: 0 },
    );
    assert.equal((await payment(created.id)).status, "failed-transfers");
    // The provider is back: the app's retry pays the seller.
    expectStatus(await api("POST", `/payments/${tenant.app.id}/${created.id}/retry`), 200);
    const paid = await waitForStatus(fx.app, tenant.apiKey, tenant.app.id, created.id, "paid");
    assert.equal(paid.transaction_response.error, null);
  });
});

describe("a seller's share is never kept silently", () => {
  test("a seller not yet onboarded: 409 seller_not_payable naming what they still need", async () => {
    const record = expectStatus(
      await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier: "seller-new" }),
      201,
    ).data;
    const price = expectStatus(
      await api("POST", `/prices/${tenant.app.id}`, {
        name: "Mug",
        amount: 9,
        currency: "usd",
        kyc_id: record.id,
      }),
      201,
    );
    const refused = assertProblem(
      await api("POST", `/payments/${tenant.app.id}`, { price_id: price.id, payment_provider: "card" }),
      409,
      "seller_not_payable",
    );
    assert.match(refused.detail, /start onboarding/);
    assert.match(refused.detail, /a bank account for payouts/);
    const checkout = assertProblem(
      await call(fx.app, "POST", `/checkout/${price.id}/payments`, {
        body: { email: "shopper@example.com", payment_provider: "card" },
      }),
      409,
      "seller_not_payable",
    );
    assert.equal(checkout.detail, refused.detail, "the hosted checkout refuses the same way");
  });
  // A seller with payments open can no longer be deleted (409): test/kyc/deletion.test.ts.
});
