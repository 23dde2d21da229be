import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { basic, createKyc, kycFixture, RETURN_URL } from "../helpers/kyc.ts";

let tenant: Awaited<ReturnType<typeof kycFixture>>;
let n = 0;
const uniqueIdentifier = () => `seller-${++n}-${Date.now()}`;

const fx = useTestApp(
  { SECRETS_MASTER_KEY: randomBytes(32).toString("base64") },
  {
    tenants: false,
    async setUp() {
      tenant = await kycFixture(fx.app);
    },
  },
);

describe("POST /apps/{app_id}/kycs", () => {
  test("creates a record with exactly the interface's defaults, wrapped in data", async () => {
    const answer = await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier: uniqueIdentifier() });
    const kyc = expectStatus(answer, 201).data;
    assert.deepEqual(Object.keys(answer.body), ["data"]);
    assert.match(kyc.id, /^kyc_/);
    assert.equal(kyc.type, "app-user");
    assert.equal(kyc.account_type, "express");
    assert.equal(kyc.account_exists, false);
    assert.equal(kyc.business_status, "pending");
    assert.equal(kyc.details_submitted, false);
    assert.equal(kyc.charges_enabled, false);
    assert.equal(kyc.payouts_enabled, false);
    assert.equal(kyc.needs_documents, true);
    for (const key of [
      "country",
      "email",
      "payout_schedule",
      "required_documents",
      "capabilities",
      "bank_accounts",
      "cards",
    ]) {
      assert.equal(kyc[key], null, key);
    }
    assert.equal(kyc.active, true);
    assert.ok(kyc.edit_token.length >= 40);
    assert.deepEqual(Object.keys(kyc.app).sort(), [
      "app_fee",
      "created_at",
      "id",
      "kyc_return_url",
      "name",
      "status",
      "type",
      "updated_at",
      "use_explorer",
    ]);
    assert.equal(kyc.app.status, "active");
    assert.equal(kyc.app.kyc_return_url, RETURN_URL);
    assert.equal(kyc.app.app_fee, 2.5);
    assert.equal(kyc.app.type, "marketplace");
  });

  test("an existing identifier answers 200 with the same record and the same working token", async () => {
    const identifier = uniqueIdentifier();
    const first = expectStatus(
      await createKyc(fx.app, tenant.app.id, tenant.apiKey, {
        identifier,
        email: "s@example.com",
        account_type: "custom",
        type: "app",
      }),
      201,
    ).data;
    assert.equal(first.email, "s@example.com");
    assert.equal(first.type, "app");
    assert.equal(first.account_type, "custom");
    const again = expectStatus(
      await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier }),
      200,
    ).data;
    assert.equal(again.id, first.id);
    assert.equal(again.edit_token, first.edit_token);
    assert.equal(again.email, "s@example.com");
    const page = await fx.app.app.inject({ method: "GET", url: `/kyc/${again.edit_token}` });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /s@example\.com/, "the email given at creation is pre-filled");
  });

  test("20 concurrent POSTs with one identifier leave one record", async () => {
    const identifier = uniqueIdentifier();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier })),
    );
    const statuses = answers.map((a) => a.status).sort();
    assert.equal(statuses.filter((s) => s === 201).length, 1, statuses.join(","));
    assert.equal(statuses.filter((s) => s === 200).length, 19);
    assert.equal(new Set(answers.map((a) => a.body.data.id)).size, 1);
    assert.equal(new Set(answers.map((a) => a.body.data.edit_token)).size, 1);
  });

  test("rejects identifiers of 1 and 1025 characters, naming /body/identifier", async () => {
    for (const identifier of ["a", "x".repeat(1025)]) {
      const problem = assertProblem(
        await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier }),
        400,
        "validation_failed",
      );
      assert.ok(
        problem.errors.some((e: { path: string }) => e.path === "/body/identifier"),
        JSON.stringify(problem),
      );
    }
    expectStatus(await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier: "ab" }), 201);
    expectStatus(
      await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier: "y".repeat(1024) }),
      201,
    );
  });

  test("rejects an unknown field, a bad email, a bad type, and malformed JSON", async () => {
    let problem = assertProblem(
      await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier: "seller-x", colour: "red" }),
      400,
      "validation_failed",
    );
    assert.equal(problem.errors[0].path, "/body/colour");
    problem = assertProblem(
      await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier: "seller-x", email: "nope" }),
      400,
      "validation_failed",
    );
    assert.equal(problem.errors[0].path, "/body/email");
    assertProblem(
      await createKyc(fx.app, tenant.app.id, tenant.apiKey, {
        identifier: "seller-x",
        account_type: "premium",
      }),
      400,
      "validation_failed",
    );
    assertProblem(
      await call(fx.app, "POST", `/apps/${tenant.app.id}/kycs`, {
        token: tenant.apiKey,
        raw: '{"identifier": "ab"',
      }),
      400,
      "validation_failed",
    );
    const list = expectStatus(
      await call(fx.app, "GET", `/apps/${tenant.app.id}/kycs?limit=100`, { token: tenant.apiKey }),
      200,
    );
    assert.ok(
      !list.data.some((k: { identifier: string }) => k.identifier === "seller-x"),
      "nothing was created",
    );
  });

  test("accepts the API key as HTTP Basic and as Bearer, and a member's session token", async () => {
    const identifier = uniqueIdentifier();
    expectStatus(
      await call(fx.app, "POST", `/apps/${tenant.app.id}/kycs`, {
        headers: basic(tenant.apiKey),
        body: { identifier },
      }),
      201,
    );
    expectStatus(await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier }), 200);
    expectStatus(await createKyc(fx.app, tenant.app.id, tenant.developer.token, { identifier }), 200);
  });

  test("401 without a credential, with WWW-Authenticate; 404 for another app", async () => {
    const answer = await call(fx.app, "POST", `/apps/${tenant.app.id}/kycs`, {
      body: { identifier: "seller-y" },
    });
    assertProblem(answer, 401, "unauthenticated");
    assert.ok(answer.headers["www-authenticate"]);
    assertProblem(
      await createKyc(fx.app, tenant.app.id, tenant.otherApiKey, { identifier: "seller-y" }),
      404,
      "not_found",
    );
    assertProblem(
      await createKyc(fx.app, tenant.app.id, tenant.outsider.token, { identifier: "seller-y" }),
      404,
      "not_found",
    );
  });
});

describe("GET, PATCH, refresh-token and DELETE of one record", () => {
  test("reads, deactivates, refreshes the token and deletes", async () => {
    const kyc = expectStatus(
      await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier: uniqueIdentifier() }),
      201,
    ).data;
    const url = `/apps/${tenant.app.id}/kycs/${kyc.id}`;
    const read = expectStatus(await call(fx.app, "GET", url, { headers: basic(tenant.apiKey) }), 200);
    assert.deepEqual(read, { data: kyc });

    const off = expectStatus(
      await call(fx.app, "PATCH", url, { token: tenant.apiKey, body: { active: false } }),
      200,
    ).data;
    assert.equal(off.active, false);
    assert.equal(off.id, kyc.id);
    const on = expectStatus(
      await call(fx.app, "PATCH", url, { token: tenant.owner.token, body: { active: true } }),
      200,
    ).data;
    assert.equal(on.active, true);

    assert.equal((await fx.app.app.inject({ method: "GET", url: `/kyc/${kyc.edit_token}` })).statusCode, 200);
    const refreshed = expectStatus(
      await call(fx.app, "PATCH", `${url}/refresh-token`, { token: tenant.apiKey }),
      200,
    ).data;
    assert.notEqual(refreshed.edit_token, kyc.edit_token);
    assert.equal((await fx.app.app.inject({ method: "GET", url: `/kyc/${kyc.edit_token}` })).statusCode, 404);
    assert.equal(
      (await fx.app.app.inject({ method: "GET", url: `/kyc/${refreshed.edit_token}` })).statusCode,
      200,
    );
    const again = expectStatus(
      await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier: kyc.identifier }),
      200,
    ).data;
    assert.equal(again.edit_token, refreshed.edit_token, "POST answers the current token");

    const deleted = await call(fx.app, "DELETE", url, { token: tenant.apiKey });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, "");
    assertProblem(await call(fx.app, "GET", url, { token: tenant.apiKey }), 404, "not_found");
    assertProblem(await call(fx.app, "DELETE", url, { token: tenant.apiKey }), 404, "not_found");
    assert.equal(
      (await fx.app.app.inject({ method: "GET", url: `/kyc/${refreshed.edit_token}` })).statusCode,
      404,
    );
  });

  test("PATCH refuses a non-boolean active, unknown fields and malformed JSON", async () => {
    const kyc = expectStatus(
      await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier: uniqueIdentifier() }),
      201,
    ).data;
    const url = `/apps/${tenant.app.id}/kycs/${kyc.id}`;
    let problem = assertProblem(
      await call(fx.app, "PATCH", url, { token: tenant.apiKey, body: { active: "no" } }),
      400,
      "validation_failed",
    );
    assert.equal(problem.errors[0].path, "/body/active");
    problem = assertProblem(
      await call(fx.app, "PATCH", url, {
        token: tenant.apiKey,
        body: { active: true, email: "x@example.com" },
      }),
      400,
      "validation_failed",
    );
    assert.equal(problem.errors[0].path, "/body/email");
    assertProblem(
      await call(fx.app, "PATCH", url, { token: tenant.apiKey, raw: "{" }),
      400,
      "validation_failed",
    );
    assertProblem(
      await call(fx.app, "GET", `/apps/${tenant.app.id}/kycs/kyc_missing`, { token: tenant.apiKey }),
      404,
      "not_found",
    );
  });

  test("every route: 401 without a credential, 404 from another app, Basic auth works", async () => {
    const kyc = expectStatus(
      await createKyc(fx.app, tenant.app.id, tenant.apiKey, { identifier: uniqueIdentifier() }),
      201,
    ).data;
    const url = `/apps/${tenant.app.id}/kycs/${kyc.id}`;
    const routes: [string, string, unknown][] = [
      ["GET", url, undefined],
      ["PATCH", url, { active: true }],
      ["PATCH", `${url}/refresh-token`, undefined],
      ["GET", `/apps/${tenant.app.id}/kycs`, undefined],
      ["DELETE", url, undefined],
    ];
    for (const [method, path, body] of routes) {
      const anonymous = await call(fx.app, method, path, { body });
      assertProblem(anonymous, 401, "unauthenticated");
      assert.ok(anonymous.headers["www-authenticate"], `${method} ${path}`);
      assertProblem(
        await call(fx.app, method, path, { body, headers: basic("sk_test_nonsense") }),
        401,
        "unauthenticated",
      );
      assertProblem(await call(fx.app, method, path, { body, token: tenant.otherApiKey }), 404, "not_found");
      assertProblem(
        await call(fx.app, method, path, { body, token: tenant.outsider.token }),
        404,
        "not_found",
      );
      // The other app's id with this record's id is 404 too: records are scoped by app.
      const otherPath = path.replace(tenant.app.id, tenant.otherApp.id);
      if (otherPath.endsWith("/kycs")) continue; // the outsider's own list is theirs to read
      assertProblem(
        await call(fx.app, method, otherPath, { body, token: tenant.outsider.token }),
        404,
        "not_found",
      );
    }
    for (const [method, path, body] of routes) {
      const answer = await call(fx.app, method, path, { body, headers: basic(tenant.apiKey) });
      assert.ok(answer.status === 200 || answer.status === 204, `${method} ${path}: ${answer.status}`);
    }
  });
});

describe("GET /apps/{app_id}/kycs", () => {
  test("pages newest first in {data: [...]} with X-Total-Count and Link", async () => {
    const fresh = await kycFixture(fx.app);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        expectStatus(await createKyc(fx.app, fresh.app.id, fresh.apiKey, { identifier: `list-${i}` }), 201)
          .data.id,
      );
    }
    const first = await call(fx.app, "GET", `/apps/${fresh.app.id}/kycs?page=1&limit=2`, {
      headers: basic(fresh.apiKey),
    });
    expectStatus(first, 200);
    assert.deepEqual(Object.keys(first.body), ["data"]);
    assert.deepEqual(
      first.body.data.map((k: { id: string }) => k.id),
      [ids[4], ids[3]],
    );
    assert.equal(first.headers["x-total-count"], "5");
    assert.match(String(first.headers.link), /rel="next"/);
    assert.match(String(first.headers.link), /page=3&limit=2>; rel="last"/);
    const last = expectStatus(
      await call(fx.app, "GET", `/apps/${fresh.app.id}/kycs?page=3&limit=2`, { token: fresh.apiKey }),
      200,
    );
    assert.deepEqual(
      last.data.map((k: { id: string }) => k.id),
      [ids[0]],
    );
    const mine = expectStatus(
      await call(fx.app, "GET", `/apps/${tenant.otherApp.id}/kycs`, { token: tenant.otherApiKey }),
      200,
    );
    assert.equal(mine.data.length, 0, "another app's records never show");
  });

  test("refuses page=0, limit=101 and unknown parameters", async () => {
    for (const query of ["page=0", "limit=101", "limit=0", "page=x", "sort=asc"]) {
      assertProblem(
        await call(fx.app, "GET", `/apps/${tenant.app.id}/kycs?${query}`, { token: tenant.apiKey }),
        400,
        "validation_failed",
      );
    }
  });
});
