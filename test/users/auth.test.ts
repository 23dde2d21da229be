import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkRouteBasics } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus, signup } from "../helpers/http.ts";

const fx = useTestApp({}, { tenants: false });

const PROFILE_FIELDS = [
  "created_at",
  "disabled",
  "email",
  "email_verified",
  "first_name",
  "id",
  "last_name",
  "role",
  "two_factor_enabled",
  "username",
];

describe("sign-up, log-in, log-out", () => {
  test("sign-up answers the profile and a working token", async () => {
    const { token, user } = await signup(fx.app, { email: "Grace@Example.com", username: "grace" });
    assert.deepEqual(Object.keys(user).sort(), PROFILE_FIELDS);
    assert.equal(user.email, "grace@example.com");
    assert.equal(user.role, "user");
    assert.equal(user.disabled, false);
    assert.match(token, /^ust_/);
    const me = expectStatus(await call(fx.app, "GET", "/users/me", { token }), 200);
    assert.deepEqual(me, user);
  });

  test("log-in with any case of the email; wrong password or unknown email is 401", async () => {
    const { email, password } = await signup(fx.app);
    const login = expectStatus(
      await call(fx.app, "POST", "/auth/login", { body: { email: email.toUpperCase(), password } }),
      200,
    );
    assert.ok(login.token);
    assert.ok(Date.parse(login.expires_at) > Date.now());
    expectStatus(await call(fx.app, "GET", "/users/me", { token: login.token }), 200);
    assertProblem(
      await call(fx.app, "POST", "/auth/login", { body: { email, password: "wrong password!!" } }),
      401,
      "unauthenticated",
    );
    assertProblem(
      await call(fx.app, "POST", "/auth/login", { body: { email: "nobody@example.com", password } }),
      401,
      "unauthenticated",
    );
  });

  test("log-out revokes the presented token only", async () => {
    const { token, email, password } = await signup(fx.app);
    const second = expectStatus(
      await call(fx.app, "POST", "/auth/login", { body: { email, password } }),
      200,
    ).token;
    expectStatus(await call(fx.app, "POST", "/auth/logout", { token }), 204);
    assertProblem(await call(fx.app, "GET", "/users/me", { token }), 401, "unauthenticated");
    expectStatus(await call(fx.app, "GET", "/users/me", { token: second }), 200);
  });

  test("a short password, a bad email and a duplicate are refused, leaving no row", async () => {
    const short = await call(fx.app, "POST", "/auth/signup", {
      body: {
        email: "a@example.com",
        password: "short",
        username: "shorty",
        first_name: "A",
        last_name: "B",
      },
    });
    const problem = assertProblem(short, 400, "validation_failed");
    assert.deepEqual(
      problem.errors.map((e: { path: string }) => e.path),
      ["/body/password"],
    );
    const badEmail = await call(fx.app, "POST", "/auth/signup", {
      body: {
        email: "not-an-email",
        password: "long enough password",
        username: "x1",
        first_name: "A",
        last_name: "B",
      },
    });
    assertProblem(badEmail, 400, "validation_failed");
    const first = await signup(fx.app, { username: "dupe" });
    const again = await call(fx.app, "POST", "/auth/signup", {
      body: {
        email: first.email,
        password: "another long password",
        username: "other",
        first_name: "A",
        last_name: "B",
      },
    });
    assertProblem(again, 409, "conflict");
    // The refused sign-ups left nothing behind: their emails cannot log in and are free to use.
    const retry = await signup(fx.app, { email: "a@example.com", username: "shorty" });
    assert.equal(retry.user.email, "a@example.com");
  });

  test("passwords and tokens never reach the logs", async () => {
    const { token, password } = await signup(fx.app, { password: "a very secret password 123" });
    await call(fx.app, "GET", "/users/me", { token });
    const text = fx.app.logs.join("");
    assert.ok(!text.includes(password));
    assert.ok(!text.includes(token));
  });
});

describe("GET /users/me", () => {
  test("basics", async () => {
    const { token } = await signup(fx.app);
    await checkRouteBasics(fx.app, { method: "GET", url: "/users/me", token });
    await checkRouteBasics(fx.app, { method: "POST", url: "/auth/logout", token });
  });

  test("an API key cannot read /users/me (403)", async () => {
    const { token } = await signup(fx.app);
    const app = await createApp(fx.app, token);
    const key = expectStatus(
      await call(fx.app, "POST", `/apps/${app.id}/api-keys`, { token, body: { name: "ci" } }),
      201,
    );
    assertProblem(await call(fx.app, "GET", "/users/me", { token: key.key }), 403, "forbidden");
  });
});
