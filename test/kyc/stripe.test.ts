import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { kycEvents } from "../../src/modules/kyc/tables.ts";
import { StripeConnectProvider } from "../../src/platform/providers/kyc/stripe.ts";
import { ProviderRejection } from "../../src/platform/providers/kyc/types.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { createKyc, eventually, kycFixture, postForm, SELLER_DETAILS } from "../helpers/kyc.ts";
import { StripeStandIn } from "../helpers/kyc-stripe-stand-in.ts";

const SECRET_KEY = "sk_test_standin";
const WEBHOOK_SECRET = "whsec_standin";

describe("StripeConnectProvider on the official SDK, against a loopback stand-in", () => {
  const standIn = new StripeStandIn();
  let provider: StripeConnectProvider;
  before(async () => {
    const port = await standIn.start();
    provider = new StripeConnectProvider({
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      host: "127.0.0.1",
      port,
      protocol: "http",
    });
  });
  after(() => standIn.stop());

  test("creates an account form-encoded, with the secret key and an Idempotency-Key", async () => {
    const account = await provider.createAccount(
      { reference: "kyc_1", type: "custom", email: "g@example.com", country: "US" },
      "kyc-kyc_1-create",
    );
    const sent = standIn.requests.at(-1)!;
    assert.equal(sent.method, "POST");
    assert.equal(sent.path, "/v1/accounts");
    assert.match(String(sent.headers["content-type"]), /^application\/x-www-form-urlencoded/);
    assert.equal(sent.headers.authorization, `Bearer ${SECRET_KEY}`);
    assert.equal(sent.headers["idempotency-key"], "kyc-kyc_1-create");
    assert.equal(sent.form.get("type"), "custom");
    assert.equal(sent.form.get("country"), "US");
    assert.equal(sent.form.get("capabilities[card_payments][requested]"), "true");
    assert.equal(sent.form.get("capabilities[transfers][requested]"), "true");
    assert.equal(sent.form.get("metadata[kyc_id]"), "kyc_1");
    assert.equal(account.id, "acct_1StandIn");
    assert.equal(account.details_submitted, false);
    assert.deepEqual(account.payout_schedule, {
      interval: "daily",
      delay_days: 2,
      weekly_anchor: null,
      monthly_anchor: null,
    });
  });

  test("submits individual details and the terms acceptance", async () => {
    await provider.submitDetails("acct_1StandIn", { ...SELLER_DETAILS, tos_ip: "203.0.113.9" }, "kyc-job-1");
    const sent = standIn.requests.at(-1)!;
    assert.equal(sent.path, "/v1/accounts/acct_1StandIn");
    assert.equal(sent.headers["idempotency-key"], "kyc-job-1");
    assert.equal(sent.form.get("business_type"), "individual");
    assert.equal(sent.form.get("individual[first_name]"), "Grace");
    assert.equal(sent.form.get("individual[dob][day]"), "9");
    assert.equal(sent.form.get("individual[dob][month]"), "12");
    assert.equal(sent.form.get("individual[dob][year]"), "1980");
    assert.equal(sent.form.get("individual[address][postal_code]"), "22201");
    assert.equal(sent.form.get("tos_acceptance[ip]"), "203.0.113.9");
    assert.match(String(sent.form.get("tos_acceptance[date]")), /^\d{10}$/);
  });

  test("a bank Stripe refuses is a ProviderRejection; an accepted one reads back as last four digits", async () => {
    const bank = {
      country: "US",
      currency: "usd",
      account_holder_name: "Grace Hopper",
      routing_number: "110000000",
      account_number: "000123456789",
    };
    standIn.refuseNextBank = true;
    await assert.rejects(provider.addBankAccount("acct_1StandIn", bank, "kyc-job-2"), (error: unknown) => {
      assert.ok(error instanceof ProviderRejection);
      assert.equal(error.code, "account_number_invalid");
      return true;
    });
    await provider.addBankAccount("acct_1StandIn", bank, "kyc-job-3");
    const sent = standIn.requests.at(-1)!;
    assert.equal(sent.path, "/v1/accounts/acct_1StandIn/external_accounts");
    assert.equal(sent.form.get("external_account[object]"), "bank_account");
    assert.equal(sent.form.get("external_account[routing_number]"), "110000000");
    assert.equal(sent.headers["idempotency-key"], "kyc-job-3");
    const account = await provider.retrieveAccount("acct_1StandIn");
    assert.equal(standIn.requests.at(-1)!.method, "GET");
    assert.equal(account.bank_accounts[0].last4, "6789");
    assert.ok(!JSON.stringify(account).includes("000123456789"));
  });

  test("uploads the document on the connected account (Stripe-Account header) and attaches it", async () => {
    const before = standIn.requests.length;
    await provider.uploadIdentityDocument(
      "acct_1StandIn",
      { filename: "passport.png", content_type: "image/png", content: Buffer.from("png-bytes") },
      "kyc-job-4",
    );
    const [upload, attach] = standIn.requests.slice(before);
    assert.equal(upload.path, "/v1/files");
    assert.equal(upload.headers["stripe-account"], "acct_1StandIn");
    assert.match(String(upload.headers["content-type"]), /^multipart\/form-data; boundary=/);
    assert.equal(upload.headers["idempotency-key"], "kyc-job-4:file");
    assert.match(upload.raw.toString(), /name="purpose"\r\n\r\nidentity_document/);
    assert.match(upload.raw.toString(), /png-bytes/);
    assert.equal(attach.path, "/v1/accounts/acct_1StandIn");
    assert.equal(attach.form.get("individual[verification][document][front]"), "file_1StandIn");
  });

  test("creates an onboarding account link", async () => {
    const url = await provider.onboardingLink("acct_1StandIn", {
      refresh_url: "https://pay.example.com/kyc/t",
      return_url: "https://shop.example.com/done",
    });
    const sent = standIn.requests.at(-1)!;
    assert.equal(sent.path, "/v1/account_links");
    assert.equal(sent.form.get("type"), "account_onboarding");
    assert.equal(sent.form.get("return_url"), "https://shop.example.com/done");
    assert.equal(url, "https://connect.stripe.com/setup/s/acct_1StandIn/standin");
  });

  test("verifies webhook signatures on the raw body", () => {
    const payload = JSON.stringify({
      id: "evt_1",
      object: "event",
      type: "account.updated",
      data: { object: standIn.account },
    });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    assert.equal(provider.parseWebhook(Buffer.from(payload), header)?.id, "acct_1StandIn");
    assert.throws(() => provider.parseWebhook(Buffer.from(`${payload} `), header), ProviderRejection);
    assert.throws(() => provider.parseWebhook(Buffer.from(payload), undefined), ProviderRejection);
  });
});

describe("the service with KYC_PROVIDER=stripe", () => {
  const standIn = new StripeStandIn();
  let tenant: Awaited<ReturnType<typeof kycFixture>>;
  // The provider is chosen from the settings at start-up, as in production.
  const fx = useTestApp(
    async () => ({
      KYC_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_CONNECT_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_HOST: "127.0.0.1",
      STRIPE_API_PORT: String(await standIn.start()),
      STRIPE_API_PROTOCOL: "http",
      SECRETS_MASTER_KEY: randomBytes(32).toString("base64"),
    }),
    {
      tenants: false,
      async setUp() {
        tenant = await kycFixture(fx.app);
      },
      afterClose: () => standIn.stop(),
    },
  );

  test("widget details go to Stripe in a job; account.updated webhooks complete the record", async () => {
    const kyc = expectStatus(
      await createKyc(fx.app, tenant.app.id, tenant.apiKey, {
        identifier: "stripe-seller",
        account_type: "custom",
      }),
      201,
    ).data;
    expectStatus(await postForm(fx.app, `/kyc/${kyc.edit_token}/details`, SELLER_DETAILS), 303);
    const incomplete = await eventually(async () => {
      const k = expectStatus(
        await call(fx.app, "GET", `/apps/${tenant.app.id}/kycs/${kyc.id}`, { token: tenant.apiKey }),
        200,
      ).data;
      return k.details_submitted ? k : undefined;
    });
    assert.equal(incomplete.business_status, "incomplete");
    assert.equal(incomplete.account_exists, true);
    assert.equal(standIn.requests[0].headers["idempotency-key"], `kyc-${kyc.id}-create`);
    assert.equal(standIn.requests[0].form.get("metadata[kyc_id]"), kyc.id);

    const enabled = {
      ...standIn.account,
      charges_enabled: true,
      payouts_enabled: true,
      capabilities: { card_payments: "active", transfers: "active" },
      requirements: {
        currently_due: [],
        eventually_due: [],
        past_due: [],
        errors: [],
        disabled_reason: null,
      },
    };
    const payload = JSON.stringify({
      id: "evt_2",
      object: "event",
      type: "account.updated",
      data: { object: enabled },
    });
    const forged = await fx.app.app.inject({
      method: "POST",
      url: "/kyc/providers/stripe/webhook",
      headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=deadbeef" },
      payload,
    });
    assert.equal(forged.statusCode, 400);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const accepted = await fx.app.app.inject({
      method: "POST",
      url: "/kyc/providers/stripe/webhook",
      headers: { "content-type": "application/json", "stripe-signature": header },
      payload,
    });
    assert.equal(accepted.statusCode, 200, accepted.body);
    const done = expectStatus(
      await call(fx.app, "GET", `/apps/${tenant.app.id}/kycs/${kyc.id}`, { token: tenant.apiKey }),
      200,
    ).data;
    assert.equal(done.business_status, "completed");
    assert.equal(done.charges_enabled, true);
    assert.equal(done.payouts_enabled, true);
    const events = await fx.app.deps.db.select().from(kycEvents).where(eq(kycEvents.kycId, kyc.id));
    assert.ok(events.some((e) => (e.payload as { business_status: string }).business_status === "completed"));
  });

  test("express accounts onboard on Stripe's pages through an account link", async () => {
    const kyc = expectStatus(
      await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier: "stripe-express" }),
      201,
    ).data;
    assert.equal(kyc.account_type, "express");
    const page = await fx.app.app.inject({ method: "GET", url: `/kyc/${kyc.edit_token}` });
    assert.match(page.body, /id="hosted"/);
    assert.doesNotMatch(page.body, /id="details"/);
    assert.match(
      String(page.headers["content-security-policy"]),
      /form-action 'self' https:\/\/connect\.stripe\.com/,
    );

    const first = await postForm(fx.app, `/kyc/${kyc.edit_token}/onboarding`, {});
    assert.equal(first.status, 303);
    assert.equal(first.headers.location, `${fx.app.deps.config.publicUrl}/kyc/${kyc.edit_token}`);
    await eventually(async () => {
      const k = expectStatus(
        await call(fx.app, "GET", `/apps/${tenant.app.id}/kycs/${kyc.id}`, { token: tenant.apiKey }),
        200,
      ).data;
      return k.account_exists ? k : undefined;
    });
    const created = standIn.requests.filter((r) => r.path === "/v1/accounts").at(-1)!;
    assert.equal(created.form.get("type"), "express");

    const second = await postForm(fx.app, `/kyc/${kyc.edit_token}/onboarding`, {});
    assert.equal(second.status, 303);
    assert.equal(second.headers.location, "https://connect.stripe.com/setup/s/acct_2StandIn/standin");
    const link = standIn.requests.at(-1)!;
    assert.equal(link.path, "/v1/account_links");
    assert.equal(link.form.get("return_url"), `${fx.app.deps.config.publicUrl}/kyc/${kyc.edit_token}`);
  });
});
