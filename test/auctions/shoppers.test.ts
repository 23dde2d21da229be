import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eq, sql } from "drizzle-orm";
import { SHOPPER_CODE_JOB } from "../../src/modules/auctions/job-names.ts";
import { shopperCodes, shopperSessions } from "../../src/modules/auctions/tables.ts";
import { createAuction, mailedCode, placeBid, shopperSession } from "../helpers/auctions.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";

let auction: any;
let base: string;

const fx = useTestApp(
  {},
  {
    async setUp() {
      auction = await createAuction(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
      base = `/auctions/${fx.tenants.app.id}/${auction.id}/shoppers`;
    },
  },
);

describe("shoppers: sign-in by one-time code", () => {
  test("a mailed code opens a session; code and token are stored hashed", async () => {
    const session = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "Jane@Example.com");
    assert.match(session.token, /^shp_/);
    assert.deepEqual(Object.keys(session.shopper).sort(), [
      "auth_method",
      "created_at",
      "disabled",
      "id",
      "phone_or_email",
    ]);
    assert.equal(session.shopper.phone_or_email, "jane@example.com");
    assert.equal(session.shopper.auth_method, "email");
    assert.equal(session.shopper.disabled, false);
    const code = await mailedCode(fx.app, "jane@example.com");
    const codes = await fx.app.deps.db
      .select()
      .from(shopperCodes)
      .where(eq(shopperCodes.email, "jane@example.com"));
    assert.ok(codes.every((c) => !c.codeHash.includes(code)));
    // The mail job carried the code's id, not the code, and the row's sealed copy went with the mail.
    assert.ok(codes.every((c) => c.codeSealed === null));
    const jobs = JSON.stringify(
      await fx.app.deps.db.execute(
        sql`select data from pgboss.job where name = ${SHOPPER_CODE_JOB} and data->>'email' = 'jane@example.com'`,
      ),
    );
    assert.match(jobs, /"codeId":"scd_/, "the mail went out as a job naming the code's row");
    assert.ok(!jobs.includes(code), "the job's data holds no code");
    const sessions = await fx.app.deps.db.select().from(shopperSessions);
    assert.ok(sessions.every((s) => s.tokenHash !== session.token && !s.tokenHash.includes(session.token)));
    assert.ok(
      fx.app.logs.every((line) => !line.includes(session.token)),
      "the token is never logged",
    );
    // The code works once.
    assertProblem(
      await call(fx.app, "POST", `${base}/session`, { body: { email: "jane@example.com", code } }),
      401,
      "unauthenticated",
    );
    // The same shopper signs in again.
    const again = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "jane@example.com");
    assert.equal(again.shopper.id, session.shopper.id);
  });

  test("a wrong code is 401; five wrong tries burn the code", async () => {
    const email = "guesser@example.com";
    expectStatus(await call(fx.app, "POST", `${base}/code`, { body: { email } }), 204);
    const code = await mailedCode(fx.app, email);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) {
      assertProblem(
        await call(fx.app, "POST", `${base}/session`, { body: { email, code: wrong } }),
        401,
        "unauthenticated",
      );
    }
    assertProblem(
      await call(fx.app, "POST", `${base}/session`, { body: { email, code } }),
      401,
      "unauthenticated",
    );
  });

  test("an expired code is refused", async () => {
    const email = "late@example.com";
    expectStatus(await call(fx.app, "POST", `${base}/code`, { body: { email } }), 204);
    const code = await mailedCode(fx.app, email);
    await fx.app.deps.db
      .update(shopperCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(shopperCodes.email, email));
    assertProblem(
      await call(fx.app, "POST", `${base}/session`, { body: { email, code } }),
      401,
      "unauthenticated",
    );
  });

  test("codes are rate-limited per email (429 with Retry-After)", async () => {
    const email = "spam@example.com";
    for (let i = 0; i < 5; i++)
      expectStatus(await call(fx.app, "POST", `${base}/code`, { body: { email } }), 204);
    const refused = await call(fx.app, "POST", `${base}/code`, { body: { email } });
    assertProblem(refused, 429, "rate_limited");
    assert.ok(Number(refused.headers["retry-after"]) > 0);
  });

  test("bad bodies are 400 with the field named; unknown auctions 404", async () => {
    for (const [path, body, field] of [
      ["code", { email: "not-an-email" }, "/body/email"],
      ["code", { email: "a@example.com", surprise: 1 }, "/body/surprise"],
      ["session", { email: "a@example.com", code: "12ab56" }, "/body/code"],
      ["session", { email: "a@example.com", code: "123456", extra: true }, "/body/extra"],
    ] as const) {
      const problem = assertProblem(
        await call(fx.app, "POST", `${base}/${path}`, { body }),
        400,
        "validation_failed",
      );
      assert.ok(
        problem.errors.some((e: { path: string }) => e.path === field),
        JSON.stringify(problem.errors),
      );
    }
    assertProblem(
      await call(fx.app, "POST", `/auctions/${fx.tenants.app.id}/auc_missing/shoppers/code`, {
        body: { email: "a@example.com" },
      }),
      404,
      "not_found",
    );
    // An auction named under another app is not found.
    assertProblem(
      await call(fx.app, "POST", `/auctions/${fx.tenants.otherApp.id}/${auction.id}/shoppers/code`, {
        body: { email: "a@example.com" },
      }),
      404,
      "not_found",
    );
  });

  test("members disable a shopper, who then cannot bid (403); outsiders get 404", async () => {
    const session = await shopperSession(fx.app, fx.tenants.app.id, auction.id, "banned@example.com");
    const url = `/auctions/${fx.tenants.app.id}/shoppers/${session.shopper.id}`;
    assertProblem(
      await call(fx.app, "PATCH", url, { token: fx.tenants.outsider.token, body: { disabled: true } }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "PATCH", `/auctions/${fx.tenants.otherApp.id}/shoppers/${session.shopper.id}`, {
        token: fx.tenants.outsider.token,
        body: { disabled: true },
      }),
      404,
      "not_found",
    );
    const disabled = expectStatus(
      await call(fx.app, "PATCH", url, { token: fx.tenants.developer.token, body: { disabled: true } }),
      200,
    );
    assert.equal(disabled.disabled, true);
    assertProblem(await placeBid(fx.app, session.token, fx.tenants.app.id, auction.id, 50), 403, "forbidden");
    expectStatus(
      await call(fx.app, "PATCH", url, { token: fx.tenants.owner.token, body: { disabled: false } }),
      200,
    );
    expectStatus(await placeBid(fx.app, session.token, fx.tenants.app.id, auction.id, 50), 202);
  });
});
