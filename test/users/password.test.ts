import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { FakeClock } from "../helpers/clock.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus, mailedToken, signup } from "../helpers/http.ts";

const clock = new FakeClock();
const fx = useTestApp({}, { now: clock.now });

const NEW_PASSWORD = "a brand new passphrase";

async function login(email: string, password: string, agent = "test-agent/1") {
  return call(fx.app, "POST", "/auth/login", {
    body: { email, password },
    headers: { "user-agent": agent },
  });
}

describe("password reset", () => {
  test("always 202; a known address gets a one-hour single-use link, and the reset ends every session", async () => {
    const user = await signup(fx.app);
    const other = expectStatus(await login(user.email, user.password), 200).token as string;
    const before = fx.app.mailer.to(user.email).length;

    const asked = await call(fx.app, "POST", "/auth/password-reset", {
      body: { email: user.email.toUpperCase() },
    });
    assert.equal(asked.status, 202);
    const unknown = await call(fx.app, "POST", "/auth/password-reset", {
      body: { email: "nobody@example.com" },
    });
    assert.equal(unknown.status, 202, "the same answer for an address no account has");
    assert.equal(unknown.text, asked.text);

    const token = await mailedToken(fx.app, user.email, "pwr_", before);
    // The sign-up's own mail (its verification link) is sent by a job and may arrive after this one.
    const mail = fx.app.mailer.to(user.email).find((sent) => sent.text.includes(token));
    assert.ok(mail?.text.includes(`${fx.app.deps.config.publicUrl}/password-reset/${token}`));
    assert.equal(fx.app.mailer.to("nobody@example.com").length, 0);

    const page = await call(fx.app, "GET", `/password-reset/${token}`);
    assert.equal(page.status, 200);
    assert.match(String(page.headers["content-type"]), /text\/html/);
    assert.equal(page.headers["cache-control"], "no-store");
    assert.match(String(page.headers["content-security-policy"]), /default-src 'none'/);

    expectStatus(
      await call(fx.app, "POST", "/auth/password-reset/confirm", { body: { token, password: NEW_PASSWORD } }),
      204,
    );
    for (const session of [user.token, other]) {
      assertProblem(await call(fx.app, "GET", "/users/me", { token: session }), 401, "unauthenticated");
    }
    assertProblem(await login(user.email, user.password), 401, "unauthenticated");
    expectStatus(await login(user.email, NEW_PASSWORD), 200);

    // Single use: the link is spent, its page says so.
    const again = await call(fx.app, "POST", "/auth/password-reset/confirm", {
      body: { token, password: "yet another passphrase" },
    });
    assert.equal(assertProblem(again, 400, "validation_failed").errors[0].path, "/body/token");
    assert.equal((await call(fx.app, "GET", `/password-reset/${token}`)).status, 404);
    // The link went to the address, so it proves it.
    const fresh = expectStatus(await login(user.email, NEW_PASSWORD), 200).token;
    assert.equal(
      expectStatus(await call(fx.app, "GET", "/users/me", { token: fresh }), 200).email_verified,
      true,
    );
  });

  test("a link older than an hour does not work; the token is neither stored nor logged", async () => {
    const user = await signup(fx.app);
    const before = fx.app.mailer.to(user.email).length;
    expectStatus(await call(fx.app, "POST", "/auth/password-reset", { body: { email: user.email } }), 202);
    const token = await mailedToken(fx.app, user.email, "pwr_", before);
    assert.ok(!fx.app.logs.join("").includes(token), "the mail's log copy masks it");
    const dump = await fx.app.deps.db.execute(
      "select data::text as data from pgboss.job union all select token_hash from account_tokens" as never,
    );
    assert.ok(!JSON.stringify(dump).includes(token.slice(4)), "neither job data nor the token table hold it");

    clock.advance(3600_000 + 1000);
    try {
      const late = await call(fx.app, "POST", "/auth/password-reset/confirm", {
        body: { token, password: NEW_PASSWORD },
      });
      assertProblem(late, 400, "validation_failed");
    } finally {
      clock.reset();
    }
  });

  test("too many resets for one address are 429, for known and unknown addresses alike", async () => {
    for (const email of ["flood@example.com", (await signup(fx.app)).email]) {
      for (let i = 0; i < 5; i++) {
        expectStatus(await call(fx.app, "POST", "/auth/password-reset", { body: { email } }), 202);
      }
      const sixth = await call(fx.app, "POST", "/auth/password-reset", { body: { email } });
      assertProblem(sixth, 429, "rate_limited");
      assert.ok(Number(sixth.headers["retry-after"]) > 0);
    }
  });
});

describe("password change and sessions", () => {
  test("a change needs the current password and ends every other session, not this one", async () => {
    const user = await signup(fx.app);
    const other = expectStatus(await login(user.email, user.password), 200).token as string;
    const wrong = await call(fx.app, "POST", "/users/me/password", {
      token: user.token,
      body: { current_password: "not the password", new_password: NEW_PASSWORD },
    });
    assert.equal(assertProblem(wrong, 400, "validation_failed").errors[0].path, "/body/current_password");
    expectStatus(
      await call(fx.app, "POST", "/users/me/password", {
        token: user.token,
        body: { current_password: user.password, new_password: NEW_PASSWORD },
      }),
      204,
    );
    expectStatus(await call(fx.app, "GET", "/users/me", { token: user.token }), 200);
    assertProblem(await call(fx.app, "GET", "/users/me", { token: other }), 401, "unauthenticated");
    expectStatus(await login(user.email, NEW_PASSWORD), 200);
    const key = await fx.key();
    assertProblem(
      await call(fx.app, "POST", "/users/me/password", {
        token: key,
        body: { current_password: "x", new_password: NEW_PASSWORD },
      }),
      403,
      "forbidden",
    );
  });

  test("sessions list their creation, last use, address and user agent; one can be ended", async () => {
    const user = await signup(fx.app);
    const second = expectStatus(await login(user.email, user.password, "phone-browser/2"), 200)
      .token as string;
    const list = await call(fx.app, "GET", "/users/me/sessions", { token: user.token });
    const sessions = expectStatus(list, 200) as Record<string, unknown>[];
    assert.equal(list.headers["x-total-count"], "2");
    assert.equal(sessions.length, 2);
    const [newest, first] = sessions;
    assert.equal(newest.user_agent, "phone-browser/2");
    assert.equal(newest.current, false);
    assert.equal(first.current, true);
    assert.equal(newest.ip, "127.0.0.1");
    for (const s of sessions) {
      assert.deepEqual(Object.keys(s).sort(), [
        "created_at",
        "current",
        "expires_at",
        "id",
        "ip",
        "last_used_at",
        "user_agent",
      ]);
      assert.match(String(s.id), /^ses_/);
    }
    expectStatus(await call(fx.app, "DELETE", `/users/me/sessions/${newest.id}`, { token: user.token }), 204);
    assertProblem(await call(fx.app, "GET", "/users/me", { token: second }), 401, "unauthenticated");
    // Another user's session is not found, whatever its id.
    const stranger = await signup(fx.app);
    assertProblem(
      await call(fx.app, "DELETE", `/users/me/sessions/${first.id}`, { token: stranger.token }),
      404,
      "not_found",
    );
    expectStatus(await call(fx.app, "GET", "/users/me", { token: user.token }), 200);
  });
});
