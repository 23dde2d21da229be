import assert from "node:assert/strict";
import { test } from "node:test";
import { eq } from "drizzle-orm";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { users } from "../../src/modules/users/tables.ts";
import { buildTestApp, LIVE_MODE_SETTINGS, type TestApp } from "../helpers/app.ts";
import { call, expectStatus, signup } from "../helpers/http.ts";

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error.message;
  }
  assert.fail(`expected ${JSON.stringify(env)} to be refused`);
}

test("PASSWORD_HASH_COST: 15 by default, 10 to 17, and never below 15 in live mode", () => {
  assert.equal(loadConfig({}).passwordHashCost, 15);
  assert.equal(loadConfig({ ...LIVE_MODE_SETTINGS }).passwordHashCost, 15);
  assert.equal(loadConfig({ ...LIVE_MODE_SETTINGS, PASSWORD_HASH_COST: "17" }).passwordHashCost, 17);
  assert.equal(loadConfig({ PASSWORD_HASH_COST: "10" }).passwordHashCost, 10, "test mode may go lower");
  assert.match(refusal({ PASSWORD_HASH_COST: "9" }), /PASSWORD_HASH_COST.*between 10 and 17/);
  assert.match(refusal({ PASSWORD_HASH_COST: "18" }), /PASSWORD_HASH_COST.*between 10 and 17/);
  assert.match(refusal({ PASSWORD_HASH_COST: "fifteen" }), /PASSWORD_HASH_COST/);
  assert.match(
    refusal({ ...LIVE_MODE_SETTINGS, PASSWORD_HASH_COST: "14" }),
    /PASSWORD_HASH_COST.*at least 15 in live mode/,
  );
});

test("a refused cost stops the app's start, naming the setting", async () => {
  await assert.rejects(buildTestApp({ PASSWORD_HASH_COST: "9" }), /PASSWORD_HASH_COST/);
  await assert.rejects(
    buildTestApp({ ...LIVE_MODE_SETTINGS, PASSWORD_HASH_COST: "12" }),
    /PASSWORD_HASH_COST/,
  );
});

async function storedHash(app: TestApp, email: string): Promise<string> {
  const [row] = await app.deps.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, email));
  return row.passwordHash;
}

async function login(app: TestApp, email: string, password: string) {
  return call(app, "POST", "/auth/login", { body: { email, password } });
}

test("a cost raised on a redeploy: older passwords still log in, and passwords set from then on take the new cost", async (t) => {
  const before = await buildTestApp({ PASSWORD_HASH_COST: "10" });
  let app = before;
  t.after(() => app.close());
  const early = await signup(app);
  assert.match(await storedHash(app, early.email), /^scrypt\$1024\$8\$1\$/);

  app = await before.restart({ PASSWORD_HASH_COST: "15" });
  assert.equal(app.deps.config.passwordHashCost, 15);
  const session = expectStatus(await login(app, early.email, early.password), 200).token as string;
  assert.equal((await login(app, early.email, "not the password at all")).status, 401);
  assert.equal((await login(app, "nobody@example.com", early.password)).status, 401);

  const late = await signup(app);
  assert.match(await storedHash(app, late.email), /^scrypt\$32768\$8\$1\$/, "the default cost, 2^15");
  expectStatus(await login(app, late.email, late.password), 200);

  const changed = await call(app, "POST", "/users/me/password", {
    token: session,
    body: { current_password: early.password, new_password: "another long passphrase" },
  });
  expectStatus(changed, 204);
  assert.match(
    await storedHash(app, early.email),
    /^scrypt\$32768\$/,
    "a changed password takes the new cost",
  );
  expectStatus(await login(app, early.email, "another long passphrase"), 200);
});
