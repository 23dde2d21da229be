import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { promisify } from "node:util";
import { freePort } from "../helpers/browser.ts";
import { http, type Running, runService, sharedDatabase, until } from "../helpers/processes.ts";

// Master-key safety with real processes on one PostgreSQL (docs/custody.md): a process whose keys
// cannot open what the database holds refuses to start; a rotation under traffic answers no 5xx.
const onPostgres = Boolean(process.env.DATABASE_URL);
const skip = !onPostgres && "needs PostgreSQL: the processes share one database";
const run = promisify(execFile);

const databases: Awaited<ReturnType<typeof sharedDatabase>>[] = [];
const processes: Running[] = [];
const dirs: string[] = [];
after(async () => {
  for (const p of processes) p.child.kill("SIGKILL");
  for (const p of processes) await p.exited;
  for (const database of databases) await database.drop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A new PostgreSQL database for one test's processes: its connection settings. */
async function freshDatabase(): Promise<Record<string, string>> {
  const database = await sharedDatabase();
  databases.push(database);
  return database.env;
}

const freshDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "keys-"));
  dirs.push(dir);
  return dir;
};
const newKey = () => randomBytes(32).toString("base64");

async function start(env: Record<string, string>): Promise<{ base: string; running: Running }> {
  const port = await freePort();
  const running = runService({ RUN_WORKER: "false", PORT: String(port), ...env });
  processes.push(running);
  const base = `http://127.0.0.1:${port}`;
  await until(async () => (await http(base, "GET", "/health/ready")).status === 200, `${base} ready`);
  return { base, running };
}

async function stop(running: Running) {
  running.child.kill("SIGTERM");
  await running.exited;
}

/** An owner, a marketplace app with a price, an API key and a few payments (each with its sealed token). */
async function shop(base: string, name: string) {
  const signup = await http(base, "POST", "/auth/signup", undefined, {
    email: `${name}@example.com`,
    password: "correct horse battery staple",
    username: name,
    first_name: "Ada",
    last_name: "Lovelace",
  });
  assert.equal(signup.status, 201, JSON.stringify(signup.body));
  const token = signup.body.token as string;
  const app = await http(base, "POST", "/apps", token, { name, app_fee: 0, use_explorer: false });
  assert.equal(app.status, 201, JSON.stringify(app.body));
  const appId = app.body.id as string;
  const patched = await http(base, "PATCH", `/apps/${appId}`, token, {
    kyc_return_url: "https://shop.example.com/kyc-done",
    type: "marketplace",
    app_fee: 2.5,
  });
  assert.equal(patched.status, 200, JSON.stringify(patched.body));
  const key = await http(base, "POST", `/apps/${appId}/api-keys`, token, { name: "server" });
  const price = await http(base, "POST", `/prices/${appId}`, token, {
    name: "Ticket",
    amount: 10,
    currency: "usd",
  });
  assert.equal(price.status, 201, JSON.stringify(price.body));
  return { token, appId, apiKey: key.body.key as string, priceId: price.body.id as string };
}

type Shop = Awaited<ReturnType<typeof shop>>;

/** One round of what seals and opens secrets: a payment create, the payment list, a KYC create. */
async function round(base: string, s: Shop, i: number): Promise<number[]> {
  const created = await http(base, "POST", `/payments/${s.appId}`, s.token, {
    price_id: s.priceId,
    payment_provider: "card",
  });
  const listed = await http(base, "GET", `/payments/${s.appId}?limit=100`, s.token);
  const kyc = await http(base, "POST", `/apps/${s.appId}/kycs`, s.apiKey, { identifier: `seller-${i}` });
  return [created.status, listed.status, kyc.status];
}

const rotate = (env: Record<string, string>) =>
  run(process.execPath, ["scripts/rotate-master-key.ts"], { env: { PATH: process.env.PATH, ...env } });

describe("master keys on one PostgreSQL", { skip }, () => {
  test("a second process whose key file differs refuses to start, naming SECRETS_MASTER_KEY", async () => {
    const env = await freshDatabase();
    const first = await start({ ...env, DATA_DIR: freshDir() });
    const s = await shop(first.base, "keysfirst");
    assert.deepEqual(await round(first.base, s, 0), [201, 200, 201]);

    const second = runService({ ...env, PORT: String(await freePort()), DATA_DIR: freshDir() });
    processes.push(second);
    const exit = await second.exited;
    assert.notEqual(exit.code, 0, "the second process exits non-zero");
    assert.match(second.output(), /SECRETS_MASTER_KEY/);
    assert.match(second.output(), /mk_[0-9a-f]{16}/, "it names the key it lacks by its fingerprint");
    // The first goes on serving everything it sealed.
    assert.deepEqual(await round(first.base, s, 1), [201, 200, 201]);

    // As does a process given the wrong SECRETS_MASTER_KEY.
    const third = runService({ ...env, PORT: String(await freePort()), SECRETS_MASTER_KEY: newKey() });
    processes.push(third);
    assert.notEqual((await third.exited).code, 0);
    assert.match(third.output(), /SECRETS_MASTER_KEY/);
    await stop(first.running);
  });

  test("rotating the master key while two processes serve answers no 5xx", { timeout: 300_000 }, async () => {
    const env = await freshDatabase();
    const [oldKey, nextKey] = [newKey(), newKey()];
    const serving = [
      await start({ ...env, SECRETS_MASTER_KEY: oldKey }),
      await start({ ...env, SECRETS_MASTER_KEY: oldKey }),
    ];
    const s = await shop(serving[0].base, "rotation");

    // Traffic that seals (payment tokens, KYC edit tokens) and opens (the payment list) throughout,
    // spread over the processes in service (a load balancer takes one out before it is stopped).
    const statuses: number[] = [];
    let stopped = false;
    let rounds = 0;
    let current: Promise<unknown> = Promise.resolve();
    const load = (async () => {
      while (!stopped) {
        const base = serving[rounds % serving.length].base;
        current = round(base, s, rounds).then((answered) => statuses.push(...answered));
        await current;
        rounds++;
      }
    })();
    const takeOut = async (index: number) => {
      const [gone] = serving.splice(index, 1);
      await current; // the round under way on it finishes
      await stop(gone.running);
    };
    const roundsSoFar = async (more: number) => {
      const target = rounds + more;
      await until(() => rounds >= target, `${more} more rounds`);
    };
    await roundsSoFar(3);

    // Phase 1: each process in turn is deployed knowing the new key (current) and the old (previous).
    // The database still names the old key as the sealing one, so the new processes keep sealing with
    // it and the one not yet redeployed opens everything they write.
    const rolled = { ...env, SECRETS_MASTER_KEY: nextKey, SECRETS_MASTER_KEY_PREVIOUS: oldKey };
    for (let i = 0; i < 2; i++) {
      await takeOut(0);
      serving.push(await start(rolled));
      await roundsSoFar(3);
    }

    // Phase 2: the new key seals from now on, and everything stored moves to it, under traffic.
    const { stdout } = await rotate(rolled);
    assert.match(stdout, /re-sealed .* (\d+) payment token\(s\).* under master key mk_/);
    assert.match(stdout, /no longer holds anything under mk_/);
    await roundsSoFar(3);
    stopped = true;
    await load;

    const failures = statuses.filter((status) => status >= 500);
    assert.deepEqual(failures, [], `no 5xx in ${statuses.length} answers`);
    assert.ok(statuses.filter((status) => status === 201).length >= 20, "the traffic was real");

    // Phase 3: the former key can go. A process with only the new key starts and opens everything;
    // one with only the old key refuses.
    for (let i = 0; i < 2; i++) await takeOut(0);
    const after = await start({ ...env, SECRETS_MASTER_KEY: nextKey });
    assert.deepEqual(await round(after.base, s, 10_000), [201, 200, 201]);
    // The owner sees the rotation in the app's audit log, made by the operator under the new key.
    const log = await http(after.base, "GET", `/apps/${s.appId}/audit-log?action=master_key.rotate`, s.token);
    assert.equal(log.status, 200, JSON.stringify(log.body));
    const [rotation] = log.body;
    assert.equal(log.body.length, 1);
    assert.equal(rotation.actor.type, "operator");
    assert.match(rotation.actor.id, /.@./);
    assert.match(rotation.target_id, /^mk_[0-9a-f]{16}$/);
    assert.equal(rotation.credential_id, rotation.target_id);
    const stale = runService({ ...env, PORT: String(await freePort()), SECRETS_MASTER_KEY: oldKey });
    processes.push(stale);
    assert.notEqual((await stale.exited).code, 0);
    assert.match(stale.output(), /SECRETS_MASTER_KEY/);
    await stop(after.running);
  });

  test("npm run rotate-master-key with the key file while the service runs: it keeps answering", async () => {
    const env = { ...(await freshDatabase()), DATA_DIR: freshDir() };
    const service = await start(env);
    const s = await shop(service.base, "keyfile");
    assert.deepEqual(await round(service.base, s, 0), [201, 200, 201]);
    const { stdout } = await rotate(env);
    assert.match(stdout, /re-sealed .* [1-9]\d* payment token\(s\)/);
    // Everything it had sealed now sits under a key it had never read: it reads the file again.
    assert.deepEqual(await round(service.base, s, 1), [201, 200, 201]);
    assert.deepEqual(await round(service.base, s, 2), [201, 200, 201]);
    await stop(service.running);
  });
});
