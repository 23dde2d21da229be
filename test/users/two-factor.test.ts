import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Secret, TOTP } from "otpauth";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus, signup } from "../helpers/http.ts";
import { apiKeyOf, createPrice } from "../helpers/prices.ts";

const fx = useTestApp();

/** The code an authenticator app shows for `secret`, `steps` 30-second steps from the app's now. */
function codeOf(secret: string, steps = 0) {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: "SHA1", digits: 6, period: 30 });
  return totp.generate({ timestamp: fx.app.deps.now().getTime() + steps * 30_000 });
}

async function withTwoFactor() {
  const user = await signup(fx.app);
  const setup = expectStatus(await call(fx.app, "POST", "/users/me/two-factor", { token: user.token }), 200);
  assert.match(setup.otpauth_url, /^otpauth:\/\/totp\/.*secret=/);
  assert.ok(setup.otpauth_url.includes(setup.secret));
  const enabled = expectStatus(
    await call(fx.app, "POST", "/users/me/two-factor/enable", {
      token: user.token,
      body: { code: codeOf(setup.secret) },
    }),
    200,
  );
  return { ...user, secret: setup.secret as string, recovery: enabled.recovery_codes as string[] };
}

async function passwordStep(email: string, password: string) {
  const answer = await call(fx.app, "POST", "/auth/login", { body: { email, password } });
  const problem = assertProblem(answer, 401, "two_factor_required");
  assert.match(problem.challenge_token, /^lch_/);
  assert.ok(Date.parse(problem.challenge_expires_at) > Date.now());
  return problem.challenge_token as string;
}

describe("two-factor log-in", () => {
  test("set-up with a first code, then log-in asks for a code after the password", async () => {
    const user = await withTwoFactor();
    assert.equal(user.recovery.length, 10);
    const me = expectStatus(await call(fx.app, "GET", "/users/me", { token: user.token }), 200);
    assert.equal(me.two_factor_enabled, true);
    const dump = JSON.stringify(
      await fx.app.deps.db.execute(
        "select totp_secret_sealed, (select string_agg(code_hash, ',') from recovery_codes) from users" as never,
      ),
    );
    assert.ok(!dump.includes(user.secret), "the secret is sealed");
    assert.ok(!user.recovery.some((code) => dump.includes(code)), "recovery codes are hashed");

    const challenge = await passwordStep(user.email, user.password);
    // The code just used at set-up is spent: the next step's code works.
    assertProblem(
      await call(fx.app, "POST", "/auth/login/2fa", { body: { challenge_token: challenge, code: "000000" } }),
      401,
      "unauthenticated",
    );
    const session = expectStatus(
      await call(fx.app, "POST", "/auth/login/2fa", {
        body: { challenge_token: challenge, code: codeOf(user.secret, 1) },
      }),
      200,
    );
    expectStatus(await call(fx.app, "GET", "/users/me", { token: session.token }), 200);
    // A challenge gives one session.
    assertProblem(
      await call(fx.app, "POST", "/auth/login/2fa", {
        body: { challenge_token: challenge, code: codeOf(user.secret, 1) },
      }),
      401,
      "unauthenticated",
    );
    // A recovery code works once.
    const again = await passwordStep(user.email, user.password);
    const recovery = user.recovery[0].toUpperCase();
    expectStatus(
      await call(fx.app, "POST", "/auth/login/2fa", { body: { challenge_token: again, code: recovery } }),
      200,
    );
    const third = await passwordStep(user.email, user.password);
    assertProblem(
      await call(fx.app, "POST", "/auth/login/2fa", { body: { challenge_token: third, code: recovery } }),
      401,
      "unauthenticated",
    );
    // A wrong password is still the plain 401, with no challenge.
    const wrong = await call(fx.app, "POST", "/auth/login", {
      body: { email: user.email, password: "not the password" },
    });
    assert.equal(assertProblem(wrong, 401, "unauthenticated").challenge_token, undefined);
  });

  test("turning it off needs the password and a code; recovery codes can be made anew", async () => {
    const user = await withTwoFactor();
    const renewed = expectStatus(
      await call(fx.app, "POST", "/users/me/two-factor/recovery-codes", {
        token: user.token,
        body: { current_password: user.password, code: user.recovery[1] },
      }),
      200,
    );
    assert.equal(renewed.recovery_codes.length, 10);
    const stale = await call(fx.app, "POST", "/users/me/two-factor/disable", {
      token: user.token,
      body: { current_password: user.password, code: user.recovery[2] },
    });
    assertProblem(stale, 400, "validation_failed");
    expectStatus(
      await call(fx.app, "POST", "/users/me/two-factor/disable", {
        token: user.token,
        body: { current_password: user.password, code: renewed.recovery_codes[0] },
      }),
      204,
    );
    expectStatus(
      await call(fx.app, "POST", "/auth/login", { body: { email: user.email, password: user.password } }),
      200,
    );
  });

  test("an app can require two-factor of its members: those without it get 403 naming it", async () => {
    const owner = await signup(fx.app);
    const app = expectStatus(
      await call(fx.app, "POST", "/apps", {
        token: owner.token,
        body: { name: "Strict", app_fee: 0, use_explorer: false },
      }),
      201,
    );
    // An owner without it cannot require it (they would shut themselves out).
    assertProblem(
      await call(fx.app, "PATCH", `/apps/${app.id}`, {
        token: owner.token,
        body: { require_two_factor: true },
      }),
      409,
      "conflict",
    );
    // A developer may not change the rule.
    assertProblem(
      await call(fx.app, "PATCH", `/apps/${fx.tenants.app.id}`, {
        token: fx.tenants.developer.token,
        body: { require_two_factor: true },
      }),
      403,
      "forbidden",
    );
    const strict = await withTwoFactor();
    const strictApp = expectStatus(
      await call(fx.app, "POST", "/apps", {
        token: strict.token,
        body: { name: "Strict", app_fee: 0, use_explorer: false },
      }),
      201,
    );
    const updated = expectStatus(
      await call(fx.app, "PATCH", `/apps/${strictApp.id}`, {
        token: strict.token,
        body: { require_two_factor: true },
      }),
      200,
    );
    assert.equal(updated.require_two_factor, true);
    expectStatus(await call(fx.app, "GET", `/members/${strictApp.id}`, { token: strict.token }), 200);
    const price = await createPrice(fx.app, strict.token, strictApp.id, { amount: 5 });
    const pay = () =>
      call(fx.app, "POST", `/payments/${strictApp.id}`, {
        token: strict.token,
        body: { price_id: price.id, payment_provider: "card" },
      });
    const paid = expectStatus(await pay(), 201);
    const key = await apiKeyOf(fx.app, strict.token, strictApp.id);
    // The owner turns it off for themselves: now the app refuses them, saying why.
    expectStatus(
      await call(fx.app, "POST", "/users/me/two-factor/disable", {
        token: strict.token,
        body: { current_password: strict.password, code: strict.recovery[0] },
      }),
      204,
    );
    const refused = await call(fx.app, "GET", `/members/${strictApp.id}`, { token: strict.token });
    assert.match(assertProblem(refused, 403, "forbidden").detail, /two-factor/);
    // The payment create reads the role in its own statement: the same rule, the same answer.
    assert.match(assertProblem(await pay(), 403, "forbidden").detail, /two-factor/);
    // So do a payment's read and its confirm, which read the role with the payment.
    const read = await call(fx.app, "GET", `/payments/${strictApp.id}/${paid.id}`, { token: strict.token });
    assert.match(assertProblem(read, 403, "forbidden").detail, /two-factor/);
    // And the list of its payments, which reads the role with the app it shows.
    const listed = await call(fx.app, "GET", `/payments/${strictApp.id}`, { token: strict.token });
    assert.match(assertProblem(listed, 403, "forbidden").detail, /two-factor/);
    const confirmed = await call(fx.app, "POST", `/payments/${strictApp.id}/${paid.id}/confirm`, {
      token: strict.token,
      body: {
        payment_method: {
          type: "card",
          number: "4242424242424242",
          exp_month: 12,
          exp_year: 2030,
          cvc: "123",
        },
      },
    });
    assert.match(assertProblem(confirmed, 403, "forbidden").detail, /two-factor/);
    // Refused before anything was written: the payment was never asked to authorise.
    const untouched = expectStatus(
      await call(fx.app, "GET", `/payments/${strictApp.id}/${paid.id}`, { token: key }),
      200,
    );
    assert.equal(untouched.cancelable, true);
    // The app's API key is no member: its list is answered, the app in it as a developer sees it.
    const keyList = expectStatus(await call(fx.app, "GET", `/payments/${strictApp.id}`, { token: key }), 200);
    assert.deepEqual(
      keyList.map((p: { id: string }) => p.id),
      [paid.id],
    );
    assert.equal(keyList[0].app.permissions.can_delete, false);
  });
});
