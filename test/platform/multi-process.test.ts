import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import pg from "pg";
import { freePort } from "../helpers/browser.ts";
import { CARDS } from "../helpers/payments.ts";
import { http, type Running, runService, sharedDatabase, until } from "../helpers/processes.ts";

// The production topology (README, "Running in production"): two API-only processes and a
// worker-only process on one PostgreSQL, the worker killed mid-batch and started again.
const onPostgres = Boolean(process.env.DATABASE_URL);
const BATCH = 20;

let database: Awaited<ReturnType<typeof sharedDatabase>>;
const processes: Running[] = [];
before(async () => {
  if (onPostgres) database = await sharedDatabase();
});
after(async () => {
  for (const p of processes) p.child.kill("SIGKILL");
  await database?.drop();
});

test("two API processes and a worker finish a batch of payments while the worker is killed and restarted", {
  skip: !onPostgres && "needs PostgreSQL: the processes share one database",
}, async () => {
  // A killed worker's jobs are taken for crashed after JOB_TIMEOUT_SECONDS: short here.
  const env = { ...database.env, JOB_TIMEOUT_SECONDS: "3" };
  const bases: string[] = [];
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    processes.push(runService({ ...env, RUN_WORKER: "false", PORT: String(port) }));
    bases.push(`http://127.0.0.1:${port}`);
  }
  const startWorker = () => {
    const worker = runService({ ...env, RUN_API: "false" });
    processes.push(worker);
    return worker;
  };
  let worker = startWorker();
  for (const base of bases) {
    await until(async () => (await http(base, "GET", "/health/ready")).status === 200, `${base} ready`);
  }
  const signup = await http(bases[0], "POST", "/auth/signup", undefined, {
    email: "fleet@example.com",
    password: "correct horse battery staple",
    username: "fleet",
    first_name: "Ada",
    last_name: "Lovelace",
  });
  const token = signup.body.token;
  const app = await http(bases[1], "POST", "/apps", token, {
    name: "Fleet",
    app_fee: 0,
    use_explorer: false,
  });
  const price = await http(bases[0], "POST", `/prices/${app.body.id}`, token, {
    name: "Ticket",
    amount: 10,
    currency: "usd",
  });
  assert.equal(price.status, 201, JSON.stringify(price.body));

  const ids: string[] = [];
  for (let i = 0; i < BATCH; i++) {
    const base = bases[i % 2];
    const created = await http(base, "POST", `/payments/${app.body.id}`, token, {
      price_id: price.body.id,
      payment_provider: "card",
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const confirmed = await http(base, "POST", `/payments/${app.body.id}/${created.body.id}/confirm`, token, {
      payment_method: { type: "card", number: CARDS.ok, exp_month: 12, exp_year: 2099, cvc: "123" },
    });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    ids.push(created.body.id);
    if (i === BATCH / 2) {
      // Mid-batch, with jobs of earlier payments under way: the worker dies as in a power cut.
      worker.child.kill("SIGKILL");
      await worker.exited;
      worker = startWorker();
    }
  }

  const statusOf = async (id: string) =>
    (await http(bases[0], "GET", `/payments/${app.body.id}/${id}`, token)).body.status as string;
  await until(
    async () => (await Promise.all(ids.map(statusOf))).every((status) => status === "paid"),
    "every payment to be paid",
    120_000,
  );

  // Nothing was done twice at the provider: one capture per intent, for exactly its amount.
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `select i.id, i.amount, i.amount_received,
              (select count(*)::int from sandbox_events e
                where e.intent_id = i.id and e.type = 'payment_intent.succeeded') as succeeded
         from sandbox_intents i`,
    );
    assert.equal(rows.length, BATCH, "one intent per payment");
    for (const row of rows) {
      assert.equal(row.amount_received, row.amount, `${row.id} captured once, in full`);
      assert.equal(row.succeeded, 1, `${row.id} succeeded once`);
    }
  } finally {
    await client.end();
  }
});
