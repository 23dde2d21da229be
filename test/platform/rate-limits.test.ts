import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loadConfig } from "../../src/config.ts";
import type { TestApp } from "../helpers/app.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus, signup } from "../helpers/http.ts";

const login = (t: TestApp, email: string, password: string, headers: Record<string, string> = {}) =>
  call(t, "POST", "/auth/login", { body: { email, password }, headers });

function retryAfter(answer: { headers: Record<string, unknown> }): number {
  const value = Number(answer.headers["retry-after"]);
  assert.ok(Number.isInteger(value) && value >= 1, `Retry-After is a whole number of seconds: ${value}`);
  return value;
}

// Each suite has its own app: the limits it tests are the app's settings (RATE_LIMITS, TRUST_PROXY).
describe("log-in back-off per account", () => {
  const fx = useTestApp({}, { tenants: false });

  test("five wrong passwords are free; then even the right one waits, and a success clears the run", async () => {
    const person = await signup(fx.app);
    for (let i = 0; i < 5; i++)
      assertProblem(await login(fx.app, person.email, "wrong password!"), 401, "unauthenticated");
    const waiting = await login(fx.app, person.email, person.password);
    assertProblem(waiting, 429, "rate_limited");
    const seconds = retryAfter(waiting);
    assert.ok(seconds <= 2, `the first wait is short (${seconds} s)`);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 100));
    expectStatus(await login(fx.app, person.email, person.password), 200);
    // The success ended the run: the next mistake is free again.
    assertProblem(await login(fx.app, person.email, "wrong password!"), 401, "unauthenticated");
    expectStatus(await login(fx.app, person.email, person.password), 200);
  });

  test("each further failure doubles the wait", async () => {
    const person = await signup(fx.app);
    for (let i = 0; i < 5; i++) await login(fx.app, person.email, "wrong password!");
    const first = retryAfter(await login(fx.app, person.email, "wrong password!"));
    await new Promise((resolve) => setTimeout(resolve, first * 1000 + 100));
    assertProblem(await login(fx.app, person.email, "wrong password!"), 401, "unauthenticated");
    const second = retryAfter(await login(fx.app, person.email, person.password));
    assert.ok(second > first, `the wait grew: ${first} s, then ${second} s`);
  });

  test("unknown emails are counted too, so answers do not tell which accounts exist", async () => {
    for (let i = 0; i < 5; i++)
      assertProblem(await login(fx.app, "nobody@example.com", "wrong password!"), 401, "unauthenticated");
    assertProblem(await login(fx.app, "nobody@example.com", "wrong password!"), 429, "rate_limited");
  });
});

describe("per-address limits", () => {
  const fx = useTestApp(
    { RATE_LIMITS: "signup_per_ip=2/3600,login_per_ip=3/900", TRUST_PROXY: "true" },
    { tenants: false },
  );

  test("sign-ups from one address stop at the limit with 429 and Retry-After; another address goes on", async () => {
    const from = (ip: string) => ({ "x-forwarded-for": ip });
    const body = (n: number) => ({
      email: `limit${n}@example.com`,
      password: "correct horse battery staple",
      username: `limit${n}`,
      first_name: "Ada",
      last_name: "Lovelace",
    });
    expectStatus(
      await call(fx.app, "POST", "/auth/signup", { body: body(1), headers: from("203.0.113.7") }),
      201,
    );
    expectStatus(
      await call(fx.app, "POST", "/auth/signup", { body: body(2), headers: from("203.0.113.7") }),
      201,
    );
    const refused = await call(fx.app, "POST", "/auth/signup", {
      body: body(3),
      headers: from("203.0.113.7"),
    });
    assertProblem(refused, 429, "rate_limited");
    assert.ok(retryAfter(refused) > 3000, "the window is an hour");
    // TRUST_PROXY: the client is the address the proxy names, so another client is not blocked.
    expectStatus(
      await call(fx.app, "POST", "/auth/signup", { body: body(3), headers: from("198.51.100.4") }),
      201,
    );
  });

  test("log-ins from one address stop at the limit, whichever accounts they try", async () => {
    const headers = { "x-forwarded-for": "192.0.2.99" };
    for (let i = 0; i < 3; i++)
      assertProblem(
        await login(fx.app, `someone${i}@example.com`, "wrong password!", headers),
        401,
        "unauthenticated",
      );
    assertProblem(
      await login(fx.app, "someone9@example.com", "wrong password!", headers),
      429,
      "rate_limited",
    );
  });

  test("IPv6 clients count per /64: a fresh address from the same /64 is the same client", async () => {
    const from = (ip: string) => ({ "x-forwarded-for": ip });
    for (const ip of ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff:1:2:3"])
      assertProblem(
        await login(fx.app, "v6@example.com", "wrong password!", from(ip)),
        401,
        "unauthenticated",
      );
    const refused = await login(fx.app, "v6@example.com", "wrong password!", from("2001:db8:1:2:abcd::9"));
    assertProblem(refused, 429, "rate_limited");
    // The next /64 is another subscriber.
    assertProblem(
      await login(fx.app, "v6@example.com", "wrong password!", from("2001:db8:1:3::1")),
      401,
      "unauthenticated",
    );
  });
});

describe("hosted checkout limits", () => {
  const fx = useTestApp(
    { RATE_LIMITS: "checkout_per_ip=2/600,checkout_per_price=3/600", TRUST_PROXY: "true" },
    { tenants: false },
  );

  test("anonymous payments stop per address and per price, before anything is written", async () => {
    const owner = await signup(fx.app);
    const app = expectStatus(
      await call(fx.app, "POST", "/apps", {
        token: owner.token,
        body: { name: "Shop", app_fee: 0, use_explorer: false },
      }),
      201,
    );
    const price = expectStatus(
      await call(fx.app, "POST", `/prices/${app.id}`, {
        token: owner.token,
        body: { name: "Ticket", amount: 5, currency: "usd" },
      }),
      201,
    );
    const pay = (ip: string) =>
      call(fx.app, "POST", `/checkout/${price.id}/payments`, {
        body: { email: "shopper@example.com", payment_provider: "card" },
        headers: { "x-forwarded-for": ip },
      });
    expectStatus(await pay("203.0.113.1"), 201);
    expectStatus(await pay("203.0.113.1"), 201);
    const perAddress = await pay("203.0.113.1");
    assertProblem(perAddress, 429, "rate_limited");
    retryAfter(perAddress);
    expectStatus(await pay("203.0.113.2"), 201);
    assertProblem(await pay("203.0.113.3"), 429, "rate_limited");
    const list = await call(fx.app, "GET", `/payments/${app.id}`, { token: owner.token });
    assert.equal(list.body.length, 3, "the refused tries opened nothing");
  });
});

test("a bad RATE_LIMITS or TRUST_PROXY stops start-up naming the setting", () => {
  assert.throws(() => loadConfig({ RATE_LIMITS: "signup_per_ip=lots" }), /RATE_LIMITS/);
  assert.throws(() => loadConfig({ RATE_LIMITS: "no_such_limit=1/60" }), /RATE_LIMITS/);
  assert.throws(() => loadConfig({ TRUST_PROXY: "yes please" }), /TRUST_PROXY/);
  assert.equal(loadConfig({ RATE_LIMITS: "signup_per_ip=5/60" }).rateLimits.signup_per_ip.max, 5);
  assert.equal(loadConfig({ TRUST_PROXY: "2" }).trustProxy, 2);
});
