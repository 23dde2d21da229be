// The CLI as an integrator runs it: packed with the SDK, installed from the tarballs into an empty
// folder, run by the machine's other Node (20) against a listening service. `listen` forwards a
// `payment.paid` that `trigger` makes to a local receiver, which verifies the signature with the
// secret `listen` printed.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp } from "../helpers/browser.ts";
import { call, tenantFixture } from "../helpers/http.ts";
import { apiKeyOf } from "../helpers/prices.ts";
import { installPackedCli, OTHER_NODE, removeInstalled, run } from "../helpers/sdk-pack.ts";
import { verifyStandardWebhook } from "../helpers/webhooks.ts";

let t: TestApp;
let base: string;
let bin: string;
let key: string;
let appId: string;
let env: NodeJS.ProcessEnv;
let configHome: string;

// Packing and installing with npm took over the default 120 s on a machine half as fast with four
// test processes beside it: the hook gets five minutes.
const INSTALLED = 300_000;
let serving: ReturnType<typeof buildServedApp> | undefined;

before(
  async () => {
    serving = buildServedApp();
    const [served, installed] = await Promise.all([serving, installPackedCli()]);
    ({ t, base } = served);
    bin = installed;
    const f = await tenantFixture(t);
    appId = f.app.id;
    key = await apiKeyOf(t, f.owner.token, appId);
    configHome = await mkdtemp(join(tmpdir(), "cli-config-"));
    // The CLI's own settings only: nothing of this machine's environment decides what it does.
    env = { PATH: process.env.PATH, HOME: configHome, XDG_CONFIG_HOME: configHome };
  },
  { timeout: INSTALLED },
);
// The app is closed even when the hook above gave up while it was being built: left open, its
// pools and workers would keep this test process (and the run waiting for it) alive for ever.
after(async () => {
  await (await serving?.catch(() => undefined))?.t.close();
  await removeInstalled();
  if (configHome) await rm(configHome, { recursive: true, force: true });
});

/** Runs `payments …` with Node 20; answers its exit code and output, whatever the code. */
async function payments(...args: string[]) {
  try {
    const { stdout, stderr } = await run(OTHER_NODE, [bin, ...args], { env, timeout: 90_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (typeof failed.code !== "number") throw error;
    return { code: failed.code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/**
 * A local webhook receiver: keeps every POST to /hooks. Anything else is answered 404 and not kept:
 * a port of a shared machine may be reached by what was meant for another (this one once got a
 * test's readiness poll, an empty body, when `freePort` still picked ports `listen(0)` hands out).
 */
async function receiver() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server: Server = createServer((request, response) => {
    if (request.method !== "POST" || request.url !== "/hooks") {
      response.writeHead(404).end();
      return;
    }
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { received, url, stop: () => new Promise((resolve) => server.close(resolve)) };
}

/** Waits until `check` answers something (checked every 100 ms, 30 s at most). */
async function until<T>(check: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("payments (the CLI), installed from its tarball, on Node 20", () => {
  test("--version and --help answer; the package installs the `payments` command", async () => {
    const version = await payments("--version");
    assert.equal(version.code, 0);
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
    const help = await payments("--help");
    assert.match(help.stdout, /payments listen --forward-to/);
    await stat(join(dirname(bin), "../../.bin/payments"));
    const unknown = await payments("fly");
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown command: fly/);
  });

  test("login checks the key and keeps it, with its app, in a file only its owner reads", async () => {
    const refused = await payments("login", "--api-key", "sk_test_not_a_real_key", "--url", base);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /invalid, expired or revoked \[unauthenticated\]/);

    const done = await payments("login", "--api-key", key, "--url", base);
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, new RegExp(`as app ${appId} \\(Owner's app\\), test mode`));
    const file = join(configHome, "payments-backend/config.json");
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal((await stat(dirname(file))).mode & 0o777, 0o700);
    const saved = JSON.parse(await readFile(file, "utf8"));
    assert.deepEqual([saved.url, saved.apiKey, saved.appId], [base, key, appId]);
  });

  test("listen forwards the payment.paid that trigger makes, signed with the secret it printed", async () => {
    const hooks = await receiver();
    let listening: ChildProcess | undefined;
    let output = "";
    try {
      listening = spawn(OTHER_NODE, [bin, "listen", "--forward-to", hooks.url], { env });
      listening.stdout?.on("data", (chunk) => {
        output += chunk;
      });
      listening.stderr?.on("data", (chunk) => {
        output += chunk;
      });
      const secret = await until(
        () => /Your webhook signing secret is (whsec_[A-Za-z0-9+/=]+)/.exec(output)?.[1],
        `listen to be ready: ${output}`,
      );
      assert.match(output, new RegExp(`Forwarding the events of ${appId} to ${hooks.url}`));

      const triggered = await payments("trigger", "payment.paid");
      assert.equal(triggered.code, 0, triggered.stderr);
      const paymentId = /payment (pay_\w+) is paid/.exec(triggered.stdout)?.[1];
      assert.ok(paymentId, triggered.stdout);

      const paid = await until(
        () =>
          hooks.received.find((hit) => {
            const event = JSON.parse(hit.body);
            return event.type === "payment.paid" && event.data.id === paymentId;
          }),
        "the forwarded payment.paid",
      );
      assert.ok(verifyStandardWebhook(secret, paid.headers, paid.body), "signed with the printed secret");
      assert.ok(
        !verifyStandardWebhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`, paid.headers, paid.body),
      );
      const eventId = String(paid.headers["webhook-id"]);
      const listed = await call(t, "GET", `/events/${appId}/${eventId}`, { token: key });
      assert.equal(paid.body, listed.text, "the body is the event as the service delivers it");
      // Every event of the payment, in order: created, held, paid.
      const types = hooks.received
        .map((hit) => JSON.parse(hit.body))
        .filter((event) => event.data.id === paymentId)
        .map((event) => event.type);
      assert.deepEqual(types, ["payment.pending", "payment.hold", "payment.paid"]);
      await until(
        () => (output.includes(`<-- [204] POST ${hooks.url} [${eventId}]`) ? true : undefined),
        output,
      );
      assert.match(output, new RegExp(`--> payment\\.paid \\[${eventId}\\]`));

      const exited = new Promise<number | null>((resolve) => listening?.once("exit", resolve));
      listening.kill("SIGINT");
      assert.equal(await exited, 0, "^C ends listen cleanly");
      assert.match(output, /Stopped\.\n$/);
    } finally {
      if (listening && listening.exitCode === null) listening.kill("SIGKILL");
      await hooks.stop();
    }
  });

  test("events list and get read the app's event log", async () => {
    const table = await payments("events", "list", "--type", "payment.paid", "--limit", "5");
    assert.equal(table.code, 0, table.stderr);
    const [line] = table.stdout.trim().split("\n");
    assert.match(line, /^\S+Z {2}evt_\w+ {2}payment\.paid {2}pay_\w+$/);
    const json = await payments("events", "list", "--json", "--limit", "3");
    const events = json.stdout
      .trim()
      .split("\n")
      .map((text) => JSON.parse(text));
    assert.equal(events.length, 3);
    assert.ok(events.every((event) => event.app_id === appId && /^evt_/.test(event.id)));
    const one = await payments("events", "get", events[0].id);
    assert.deepEqual(JSON.parse(one.stdout), events[0]);
    const missing = await payments("events", "get", "evt_unknown");
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /Event not found \[not_found\] \(request req_\w+\)/);
  });

  test("trigger names what it can make; an unknown event is a usage error", async () => {
    const unknown = await payments("trigger", "payment.teleported");
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /these can be: payment\.pending, payment\.paid/);
    for (const [event, status] of [
      ["payment.cancelled", "cancelled"],
      ["payment.failed", "failed"],
      ["payment.refunded", "refunded"],
    ]) {
      const done = await payments("trigger", event);
      assert.equal(done.code, 0, done.stderr);
      const paymentId = new RegExp(`payment (pay_\\w+) is ${status}, ${event} was emitted`).exec(
        done.stdout,
      )?.[1];
      assert.ok(paymentId, done.stdout);
      const logged = await call(t, "GET", `/events/${appId}?type=${event}`, { token: key });
      assert.ok(
        logged.body.some((e: any) => e.data.id === paymentId),
        `${event} of ${paymentId} is in the log`,
      );
    }
  });
});
