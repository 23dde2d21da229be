import assert from "node:assert/strict";
import { test } from "node:test";
import { onPostgres } from "../helpers/app.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { createPrice, createTestKyc } from "../helpers/prices.ts";
import { createTestTrigger } from "../helpers/triggers.ts";

const fx = useTestApp();

test("GET /p/{price_id} needs no credential, shows public fields only and counts the view", async () => {
  const trigger = await createTestTrigger(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
  const seller = await createTestKyc(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
  const price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
    metadata: { internal_order: "secret-ref" },
    trigger_id: trigger.id,
    kyc_id: seller.id,
  });
  const first = expectStatus(await call(fx.app, "GET", `/p/${price.id}`), 200);
  assert.deepEqual(Object.keys(first).sort(), [
    "amount",
    "amount_decimal",
    "category",
    "chain",
    "contract",
    "created_at",
    "currency",
    "expired",
    "id",
    "name",
    "network_type",
    "type",
    "views",
  ]);
  assert.equal(first.views, 1);
  assert.ok(!first.metadata && !first.trigger_id && !first.kyc_id);
  assert.equal(expectStatus(await call(fx.app, "GET", `/p/${price.id}`), 200).views, 2);
  const owned = expectStatus(
    await call(fx.app, "GET", `/prices/${fx.tenants.app.id}/${price.id}`, { token: fx.tenants.owner.token }),
    200,
  );
  assert.equal(owned.views, 2, "reading the price through the API is not a page view");
});

test(`concurrent views all count (${onPostgres ? "PostgreSQL, 20 connections" : "PGlite"})`, async () => {
  const price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
  const answers = await Promise.all(Array.from({ length: 200 }, () => call(fx.app, "GET", `/p/${price.id}`)));
  for (const answer of answers) expectStatus(answer, 200);
  // Each answer carries the count its own update returned: all distinct, 1 to 200.
  const seen = answers.map((a) => a.body.views).sort((a, b) => a - b);
  assert.deepEqual(
    seen,
    Array.from({ length: 200 }, (_, i) => i + 1),
  );
  const owned = expectStatus(
    await call(fx.app, "GET", `/prices/${fx.tenants.app.id}/${price.id}`, { token: fx.tenants.owner.token }),
    200,
  );
  assert.equal(owned.views, 200);
});

test("the public page is listed in the OpenAPI document without security", async () => {
  const doc = expectStatus(await call(fx.app, "GET", "/openapi.json"), 200);
  assert.deepEqual(doc.paths["/p/{price_id}"].get.security, []);
  for (const path of ["/prices/{app_id}", "/prices/{app_id}/{price_id}"]) assert.ok(doc.paths[path], path);
  assert.ok(doc.paths["/prices/{app_id}/{price_id}"].delete.responses["204"]);
});
