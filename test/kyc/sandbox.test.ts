import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { SandboxKycProvider } from "../../src/platform/providers/kyc/sandbox.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { GOOD_BANK, SELLER_DETAILS } from "../helpers/kyc.ts";

let sandbox: SandboxKycProvider;

const fx = useTestApp(
  { SECRETS_MASTER_KEY: randomBytes(32).toString("base64") },
  {
    tenants: false,
    async setUp() {
      sandbox = new SandboxKycProvider(fx.app.deps.db);
    },
  },
);

const { tos: _tos, ...individual } = SELLER_DETAILS;

test("requirements go from currently_due to satisfied, one input at a time", async () => {
  const created = await sandbox.createAccount(
    { reference: "ref-1", type: "express", email: null, country: "US" },
    "k0",
  );
  assert.equal(created.type, "express");
  assert.deepEqual(created.capabilities, { card_payments: "inactive", transfers: "inactive" });
  assert.ok(created.requirements.currently_due.includes("individual.first_name"));
  assert.ok(created.requirements.currently_due.includes("individual.email"));
  assert.ok(created.requirements.eventually_due.includes("individual.verification.document"));
  const again = await sandbox.createAccount(
    { reference: "ref-1", type: "express", email: null, country: "US" },
    "k0",
  );
  assert.equal(again.id, created.id, "a retried create finds the same account");

  await sandbox.submitDetails(created.id, { ...individual, tos_ip: "203.0.113.1" }, "k1");
  let account = await sandbox.retrieveAccount(created.id);
  assert.equal(account.details_submitted, true);
  assert.deepEqual(account.requirements.currently_due, [
    "individual.verification.document",
    "external_account",
  ]);

  await sandbox.addBankAccount(created.id, { ...GOOD_BANK, routing_number: "021000021" }, "k2");
  await sandbox.addBankAccount(created.id, { ...GOOD_BANK, account_number: "000111111116" }, "k3");
  account = await sandbox.retrieveAccount(created.id);
  assert.deepEqual(
    account.requirements.errors.map((e) => e.code),
    ["routing_number_invalid", "no_account"],
  );
  assert.equal(account.payouts_enabled, false);

  await sandbox.uploadIdentityDocument(
    created.id,
    { filename: "id.png", content_type: "image/png", content: Buffer.from("x") },
    "k4",
  );
  account = await sandbox.retrieveAccount(created.id);
  assert.equal(account.charges_enabled, true);
  assert.equal(account.payouts_enabled, false);
  assert.deepEqual(account.capabilities, { card_payments: "active", transfers: "pending" });

  await sandbox.addBankAccount(created.id, GOOD_BANK, "k5");
  await sandbox.addBankAccount(created.id, GOOD_BANK, "k5");
  account = await sandbox.retrieveAccount(created.id);
  assert.equal(account.bank_accounts.length, 3, "the same idempotency key adds one bank account");
  assert.equal(account.payouts_enabled, true);
  assert.deepEqual(account.requirements.currently_due, []);
  assert.equal(account.requirements.disabled_reason, null);
});

test("the OpenAPI document defines the shapes the interface leaves open", async () => {
  const doc = expectStatus(await call(fx.app, "GET", "/openapi.json"), 200);
  const post = doc.paths["/apps/{app_id}/kycs"].post;
  assert.ok(post.responses["201"] && post.responses["200"]);
  const get = doc.paths["/apps/{app_id}/kycs/{kyc_id}"].get;
  const envelope = get.responses["200"].content["application/json"].schema;
  assert.deepEqual(envelope, { $ref: "#/components/schemas/KycEnvelope" });
  assert.deepEqual(doc.components.schemas.KycEnvelope.properties.data, { $ref: "#/components/schemas/Kyc" });
  const text = JSON.stringify(doc.components.schemas);
  for (const field of [
    "payout_schedule",
    "delay_days",
    "card_payments",
    "required_documents",
    "last4",
    "exp_month",
  ]) {
    assert.ok(text.includes(`"${field}"`), field);
  }
});
