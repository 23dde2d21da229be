import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { ATTEMPT_CUT_SHORT } from "../../src/modules/webhooks/deliver.ts";
import { onPostgres } from "../helpers/app.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { Receiver, waitForDeliveries } from "../helpers/webhooks.ts";
import { startWorker as startWorkerProcess } from "../helpers/worker.ts";

// The delivery log counts every attempt, including one a crash cut short: the attempt is recorded
// (and `attempt_count` raised) before the HTTP call, committed. A worker killed right after the
// receiver took the event leaves that attempt in the log; the retry makes it two.

// A killed worker's job is retried once it times out; short here so the test is quick.
const JOB_TIMEOUT = "2";

// The owner and their app only: no worker runs here to mail a member's verification link.
let tenant: { owner: Awaited<ReturnType<typeof signup>>; app: any };
let dir: string;
const receiver = new Receiver();

describe("a worker killed during a webhook delivery", {
  skip: !onPostgres && "needs PostgreSQL: worker processes share the database",
}, () => {
  // The API in this process, without a worker: the worker runs in the child processes.
  const fx = useTestApp(
    { RUN_WORKER: "false", JOB_TIMEOUT_SECONDS: JOB_TIMEOUT, WEBHOOKS_ALLOW_LOOPBACK: "true" },
    {
      tenants: false,
      async setUp() {
        const owner = await signup(fx.app);
        tenant = { owner, app: await createApp(fx.app, owner.token) };
        dir = mkdtempSync(path.join(os.tmpdir(), "webhook-crash-"));
        await receiver.start();
      },
      async tearDown() {
        await receiver.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    },
  );

  function startWorker(env: Record<string, string>) {
    return startWorkerProcess(fx.app.connectionString!, {
      JOB_TIMEOUT_SECONDS: JOB_TIMEOUT,
      WEBHOOKS_ALLOW_LOOPBACK: "true",
      ...env,
    });
  }

  test("the event delivered twice reads two attempts, the first one cut short", async () => {
    const endpoint = expectStatus(
      await call(fx.app, "POST", `/webhooks/${tenant.app.id}`, {
        token: tenant.owner.token,
        body: { url: receiver.url, events: ["payment.*"] },
      }),
      201,
    );
    const queued = expectStatus(
      await call(fx.app, "POST", `/webhooks/${tenant.app.id}/${endpoint.id}/test`, {
        token: tenant.owner.token,
      }),
      202,
    );
    await fx.app.deps.jobs.drainOutbox();
    const crashing = startWorker({
      FAULT_CRASH_AT: "webhook-sent",
      FAULT_MARKER: path.join(dir, "webhook-sent"),
    });
    assert.equal(await crashing.exited, "SIGKILL", "the worker died right after the receiver answered");
    assert.equal(receiver.received.length, 1, "the receiver had the event once");

    const healthy = startWorker({});
    let delivered: any;
    try {
      [delivered] = await waitForDeliveries(fx.app, tenant.owner.token, tenant.app.id, endpoint.id, (d) =>
        d.some((x) => x.id === queued.id && x.status === "succeeded"),
      );
    } finally {
      healthy.child.kill("SIGTERM");
      await healthy.exited;
    }
    assert.equal(receiver.received.length, 2, "delivered twice: at least once, as promised");
    assert.equal(delivered.attempt_count, 2);
    assert.equal(delivered.attempts.length, 2);
    const [first, second] = [...delivered.attempts].sort((a: any, b: any) =>
      a.attempted_at.localeCompare(b.attempted_at),
    );
    assert.equal(first.status_code, null);
    assert.equal(first.error, ATTEMPT_CUT_SHORT);
    assert.equal(second.status_code, 200);
    assert.equal(second.error, null);
  });
});
