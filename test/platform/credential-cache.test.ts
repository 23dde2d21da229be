import assert from "node:assert/strict";
import { test } from "node:test";
import { CredentialCache } from "../../src/platform/auth/cache.ts";

const user = { kind: "user", userId: "usr_1", sessionId: "ses_1" } as const;
const key = { kind: "api_key", appId: "app_1", keyId: "key_1" } as const;

test("a hit costs no lookup; a revocation or the time limit forces one", async () => {
  let clock = 0;
  const cache = new CredentialCache({ ttlMs: 1000, now: () => clock });
  let lookups = 0;
  const load = async () => {
    lookups++;
    return { principal: key };
  };
  assert.deepEqual(await cache.resolve("h", load), key);
  assert.deepEqual(await cache.resolve("h", load), key);
  assert.equal(lookups, 1);
  cache.revoke({ keyId: "key_1" });
  await cache.resolve("h", load);
  assert.equal(lookups, 2);
  cache.revoke({ appId: "app_1" });
  await cache.resolve("h", load);
  assert.equal(lookups, 3);
  clock = 1500;
  await cache.resolve("h", load);
  assert.equal(lookups, 4);
});

test("an expired session is not answered from the cache", async () => {
  let clock = 0;
  const cache = new CredentialCache({ ttlMs: 60_000, now: () => clock });
  let live = true;
  const load = async () => (live ? { principal: user, expiresAt: new Date(100) } : undefined);
  assert.deepEqual(await cache.resolve("s", load), user);
  live = false;
  clock = 101;
  assert.equal(await cache.resolve("s", load), undefined);
});

test("a lookup that raced a revocation is not written back", async () => {
  const cache = new CredentialCache({ ttlMs: 60_000 });
  let release: () => void = () => {};
  const slow = () =>
    new Promise<{ principal: typeof user }>((resolve) => {
      release = () => resolve({ principal: user });
    });
  const pending = cache.resolve("r", slow);
  cache.revoke({ sessionId: "ses_1" });
  release();
  await pending;
  let lookups = 0;
  await cache.resolve("r", async () => {
    lookups++;
    return undefined;
  });
  assert.equal(lookups, 1, "the raced answer was not cached");
});
