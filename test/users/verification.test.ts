import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus, mailedToken, signup, verifyEmail } from "../helpers/http.ts";

const fx = useTestApp();

const me = async (token: string) => expectStatus(await call(fx.app, "GET", "/users/me", { token }), 200);

describe("email verification", () => {
  test("sign-up mails a link; its page and the API verify once; resend is refused once verified", async () => {
    const user = await signup(fx.app);
    assert.equal(user.user.email_verified, false);
    const token = await mailedToken(fx.app, user.email, "evt_");
    assert.ok(!fx.app.logs.join("").includes(token), "the log copy of the mail masks the token");

    const page = await call(fx.app, "GET", `/verify-email/${token}`);
    assert.equal(page.status, 200);
    assert.match(page.text, /Confirm your email address/);
    assert.equal((await me(user.token)).email_verified, false, "opening the page changes nothing");

    expectStatus(await call(fx.app, "POST", "/auth/verify-email", { body: { token } }), 204);
    assert.equal((await me(user.token)).email_verified, true);
    const reused = await call(fx.app, "POST", "/auth/verify-email", { body: { token } });
    assert.equal(assertProblem(reused, 400, "validation_failed").errors[0].path, "/body/token");
    assert.equal((await call(fx.app, "GET", `/verify-email/${token}`)).status, 404);
    assertProblem(
      await call(fx.app, "POST", "/auth/verify-email/resend", { token: user.token }),
      409,
      "conflict",
    );
  });

  test("resend mails a new link, at most five an hour", async () => {
    const user = await signup(fx.app);
    const first = await mailedToken(fx.app, user.email, "evt_");
    const before = fx.app.mailer.to(user.email).length;
    const resent = await call(fx.app, "POST", "/auth/verify-email/resend", { token: user.token });
    assert.equal(resent.status, 202);
    const second = await mailedToken(fx.app, user.email, "evt_", before);
    assert.notEqual(second, first);
    for (let i = 0; i < 4; i++) {
      expectStatus(await call(fx.app, "POST", "/auth/verify-email/resend", { token: user.token }), 202);
    }
    assertProblem(
      await call(fx.app, "POST", "/auth/verify-email/resend", { token: user.token }),
      429,
      "rate_limited",
    );
    assertProblem(
      await call(fx.app, "POST", "/auth/verify-email/resend", { token: await fx.key() }),
      403,
      "forbidden",
    );
  });

  test("a new email needs the password, is verified again, and the former address is told", async () => {
    const user = await signup(fx.app);
    await verifyEmail(fx.app, user.email);
    const next = `moved${Date.now()}@example.com`;
    const noPassword = await call(fx.app, "PATCH", "/users/me", { token: user.token, body: { email: next } });
    assert.equal(
      assertProblem(noPassword, 400, "validation_failed").errors[0].path,
      "/body/current_password",
    );
    const changed = expectStatus(
      await call(fx.app, "PATCH", "/users/me", {
        token: user.token,
        body: { email: next, current_password: user.password, first_name: "Grace" },
      }),
      200,
    );
    assert.equal(changed.email, next);
    assert.equal(changed.first_name, "Grace");
    assert.equal(changed.email_verified, false);
    const told = await (async () => {
      for (let i = 0; i < 150; i++) {
        const mail = fx.app.mailer.to(user.email).find((m) => m.subject.includes("was changed"));
        if (mail) return mail;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    assert.ok(told?.text.includes(next), "the former address hears of the change");
    await verifyEmail(fx.app, next);
    assert.equal((await me(user.token)).email_verified, true);
    // Someone else's address is taken.
    const other = await signup(fx.app);
    assertProblem(
      await call(fx.app, "PATCH", "/users/me", {
        token: user.token,
        body: { email: other.email, current_password: user.password },
      }),
      409,
      "conflict",
    );
  });
});
