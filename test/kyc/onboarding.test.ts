import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { asc, eq, sql } from "drizzle-orm";
import { requirePayableSeller } from "../../src/modules/kyc/sellers.ts";
import { kycEvents } from "../../src/modules/kyc/tables.ts";
import { webhookEvents } from "../../src/modules/webhooks/tables.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import {
  createKyc,
  eventually,
  GOOD_BANK,
  kycFixture,
  postFile,
  postForm,
  SELLER_DETAILS,
} from "../helpers/kyc.ts";

let tenant: Awaited<ReturnType<typeof kycFixture>>;

const fx = useTestApp(
  {
    SECRETS_MASTER_KEY: randomBytes(32).toString("base64"),
    WEBHOOKS_ALLOW_LOOPBACK: "true",
  },
  {
    tenants: false,
    async setUp() {
      tenant = await kycFixture(fx.app);
      // Events are stored for the endpoints that listen to them: the app listens to kyc.updated.
      const endpoint = await call(fx.app, "POST", `/webhooks/${tenant.app.id}`, {
        token: tenant.owner.token,
        body: { url: "http://127.0.0.1:9/hooks", events: ["kyc.updated"] },
      });
      assert.equal(endpoint.status, 201, endpoint.text);
    },
  },
);

async function read(id: string) {
  return expectStatus(
    await call(fx.app, "GET", `/apps/${tenant.app.id}/kycs/${id}`, { token: tenant.apiKey }),
    200,
  ).data;
}

/** Waits until the widget's queued provider actions were all applied. */
async function settled(id: string, check: (kyc: any) => boolean) {
  return eventually(async () => {
    const kyc = await read(id);
    return check(kyc) ? kyc : undefined;
  });
}

test("a seller onboards through the widget's forms: pending -> incomplete -> completed, each change an event", async () => {
  const created = expectStatus(
    await createKyc(fx.app, tenant.app.id, tenant.apiKey, {
      identifier: "seller-flow",
      email: "grace@example.com",
      account_type: "custom",
    }),
    201,
  ).data;
  const token = created.edit_token;
  const page = await fx.app.app.inject({ method: "GET", url: `/kyc/${token}` });
  assert.equal(page.statusCode, 200);
  assert.match(String(page.headers["content-type"]), /text\/html/);
  const csp = String(page.headers["content-security-policy"]);
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /form-action 'self'/);
  assert.match(csp, /frame-ancestors https:\/\/shop\.example\.com/);
  assert.doesNotMatch(csp, /unsafe-inline/);
  assert.equal(page.headers["referrer-policy"], "no-referrer");
  assert.match(page.body, /value="grace@example\.com"/);
  assert.doesNotMatch(page.body, /<script/);

  const posted = await postForm(fx.app, `/kyc/${token}/details`, SELLER_DETAILS);
  assert.equal(posted.status, 303);
  assert.equal(posted.headers.location, `/kyc/${token}`);
  let kyc = await settled(created.id, (k) => k.details_submitted);
  assert.equal(kyc.account_exists, true);
  assert.equal(kyc.business_status, "incomplete");
  assert.equal(kyc.country, "US");
  assert.equal(kyc.needs_documents, true);
  assert.deepEqual(kyc.required_documents, [
    {
      requirement: "individual.verification.document",
      status: "currently_due",
      kind: "identity_document",
      error: null,
    },
  ]);
  assert.deepEqual(kyc.capabilities, { card_payments: "pending", transfers: "pending" });
  assert.deepEqual(kyc.payout_schedule, {
    interval: "daily",
    delay_days: 2,
    weekly_anchor: null,
    monthly_anchor: null,
  });
  assert.deepEqual(kyc.bank_accounts, []);
  assert.deepEqual(kyc.cards, []);

  // The closed-account test number is taken but errored, and the page says why.
  expectStatus(
    await postForm(fx.app, `/kyc/${token}/bank-account`, { ...GOOD_BANK, account_number: "000111111113" }),
    303,
  );
  kyc = await settled(created.id, (k) => k.bank_accounts.length === 1);
  assert.equal(kyc.bank_accounts[0].status, "errored");
  assert.equal(kyc.bank_accounts[0].last4, "1113");
  assert.match(
    (await fx.app.app.inject({ method: "GET", url: `/kyc/${token}` })).body,
    /The bank account is closed/,
  );

  expectStatus(await postForm(fx.app, `/kyc/${token}/bank-account`, GOOD_BANK), 303);
  kyc = await settled(created.id, (k) => k.bank_accounts.length === 2);
  const good = kyc.bank_accounts.find((b: { status: string }) => b.status === "verified");
  assert.equal(good.last4, "6789");
  assert.equal(good.default_for_currency, true);
  assert.equal(kyc.business_status, "incomplete");

  // A document the sandbox cannot verify leaves the requirement open, with its reason.
  expectStatus(await postFile(fx.app, `/kyc/${token}/documents`, "id-failure.png", Buffer.from("png")), 303);
  kyc = await settled(created.id, (k) => k.required_documents[0]?.error !== null);
  assert.equal(kyc.required_documents[0].error, "The document could not be verified");
  assert.equal(kyc.business_status, "incomplete");

  expectStatus(
    await postFile(fx.app, `/kyc/${token}/documents`, "passport.png", Buffer.from("png-bytes")),
    303,
  );
  kyc = await settled(created.id, (k) => k.business_status === "completed");
  assert.equal(kyc.charges_enabled, true);
  assert.equal(kyc.payouts_enabled, true);
  assert.equal(kyc.needs_documents, false);
  assert.deepEqual(kyc.required_documents, []);
  assert.deepEqual(kyc.capabilities, { card_payments: "active", transfers: "active" });

  const payable = await requirePayableSeller(fx.app.deps.db, tenant.app.id, created.id);
  assert.match(String(payable.providerAccountId), /^acct_sbx_/);
  assert.equal(
    await fx.app.deps.sellerAccounts(created.id),
    payable.providerAccountId,
    "payments find the seller's account",
  );
  expectStatus(
    await call(fx.app, "PATCH", `/apps/${tenant.app.id}/kycs/${created.id}`, {
      token: tenant.apiKey,
      body: { active: false },
    }),
    200,
  );
  await assert.rejects(requirePayableSeller(fx.app.deps.db, tenant.app.id, created.id), /deactivated/);
  await assert.rejects(requirePayableSeller(fx.app.deps.db, tenant.otherApp.id, created.id), /not found/);

  const text = JSON.stringify(await read(created.id));
  assert.ok(
    !text.includes("000123456789") && !text.includes("000111111113"),
    "only last four digits are answered",
  );

  const events = await fx.app.deps.db
    .select()
    .from(kycEvents)
    .where(eq(kycEvents.kycId, created.id))
    .orderBy(asc(kycEvents.createdAt), asc(kycEvents.id));
  assert.ok(events.every((e) => e.type === "kyc.updated" && e.appId === tenant.app.id));
  const moves = events
    .map((e) => e.payload as { previous_business_status: string; business_status: string })
    .filter((p) => p.previous_business_status !== p.business_status)
    .map((p) => `${p.previous_business_status}->${p.business_status}`);
  assert.deepEqual(moves, ["pending->incomplete", "incomplete->completed"]);
  const outbound = await fx.app.deps.db
    .select()
    .from(webhookEvents)
    .where(eq(webhookEvents.appId, tenant.app.id))
    .orderBy(asc(webhookEvents.id));
  const announced = outbound
    .filter((e) => e.type === "kyc.updated" && (e.data as { kyc_id: string }).kyc_id === created.id)
    .map((e) => (e.data as { business_status: string }).business_status);
  assert.equal(announced.length, events.length, "every recorded change is also sent to webhooks");
  assert.equal(announced.at(-1), "completed");
  assert.ok(!JSON.stringify(outbound).includes(token), "webhook payloads carry no edit token");

  const logs = fx.app.logs.join("");
  assert.ok(logs.length > 0);
  for (const secret of [token, "000123456789", "Hopper"])
    assert.ok(!logs.includes(secret), "no secret is logged");

  // Job rows are stored in clear: the widget's inputs must only be there sealed.
  const jobs = await fx.app.deps.db.execute(
    sql`select data::text as data from pgboss.job where name = 'kyc.provider-action'`,
  );
  const rows = (jobs as unknown as { rows: { data: string }[] }).rows;
  assert.ok(rows.length >= 5);
  assert.ok(rows.every((r) => !r.data.includes("000123456789") && !r.data.includes("Hopper")));
});

test("widget failures are pages: bad input 400, unknown token 404, deactivated seller 409", async () => {
  const created = expectStatus(
    await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier: "seller-errors" }),
    201,
  ).data;
  const token = created.edit_token;
  const { tos: _tos, ...noTerms } = SELLER_DETAILS;
  const bad = await postForm(fx.app, `/kyc/${token}/details`, noTerms);
  assert.equal(bad.status, 400);
  assert.match(String(bad.headers["content-type"]), /text\/html/);
  assert.match(bad.text, /\/body\/tos/);
  assert.ok(bad.headers["content-security-policy"]);
  const badBank = await postForm(fx.app, `/kyc/${token}/bank-account`, {
    ...GOOD_BANK,
    routing_number: "12",
  });
  assert.equal(badBank.status, 400);
  const unknown = await postForm(fx.app, `/kyc/${"z".repeat(40)}/details`, SELLER_DETAILS);
  assert.equal(unknown.status, 404);
  assert.match(unknown.text, /not valid any more/);
  assert.equal(
    (await postFile(fx.app, `/kyc/${"z".repeat(40)}/documents`, "a.png", Buffer.from("x"))).status,
    404,
  );
  const wrongType = await postFile(
    fx.app,
    `/kyc/${token}/documents`,
    "a.txt",
    Buffer.from("x"),
    "text/plain",
  );
  assert.equal(wrongType.status, 400);
  assert.match(wrongType.text, /JPEG or PNG image or a PDF/);
  const unverified = expectStatus(
    await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier: "seller-unverified" }),
    201,
  ).data;
  await assert.rejects(
    requirePayableSeller(fx.app.deps.db, tenant.app.id, unverified.id),
    (error: { code?: string; message: string }) =>
      error.code === "seller_not_payable" && /to start onboarding/.test(error.message),
  );
  expectStatus(
    await call(fx.app, "PATCH", `/apps/${tenant.app.id}/kycs/${created.id}`, {
      token: tenant.apiKey,
      body: { active: false },
    }),
    200,
  );
  assert.equal((await postForm(fx.app, `/kyc/${token}/details`, SELLER_DETAILS)).status, 409);
  const kyc = await read(created.id);
  assert.equal(kyc.details_submitted, false, "a refused form changes nothing");
});

test("the widget is rate-limited per token", async () => {
  const created = expectStatus(
    await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier: "seller-limit" }),
    201,
  ).data;
  const statuses: number[] = [];
  for (let i = 0; i < 61; i++) {
    statuses.push((await fx.app.app.inject({ method: "GET", url: `/kyc/${created.edit_token}` })).statusCode);
  }
  assert.deepEqual(statuses.slice(0, 60), Array(60).fill(200));
  const limited = await fx.app.app.inject({ method: "GET", url: `/kyc/${created.edit_token}` });
  assert.equal(limited.statusCode, 429);
  assert.ok(Number(limited.headers["retry-after"]) >= 1);
});
