import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { emitEvent } from "../../src/modules/webhooks/events.ts";
import { send } from "../../src/modules/webhooks/send.ts";
import { refusalOf } from "../../src/modules/webhooks/ssrf.ts";
import { webhookEndpoints } from "../../src/modules/webhooks/tables.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { Receiver, waitForDeliveries } from "../helpers/webhooks.ts";

// This app runs without WEBHOOKS_ALLOW_LOOPBACK, as production does.
let token: string;
let appId: string;

const fx = useTestApp(
  {},
  {
    tenants: false,
    async setUp() {
      token = (await signup(fx.app)).token;
      appId = (await createApp(fx.app, token)).id;
    },
  },
);

const register = (url: string) =>
  call(fx.app, "POST", `/webhooks/${appId}`, { token, body: { url, events: ["payment.*"] } });

describe("SSRF refusals at registration", () => {
  for (const url of [
    "http://127.0.0.1/hook",
    "http://127.1.2.3:8080/hook",
    "http://10.0.0.5/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://[fd00::1]/hook",
    "http://192.168.1.1/hook",
    "http://172.16.0.1/hook",
    "http://100.64.0.1/hook",
    "http://0.0.0.0/hook",
    "http://localhost:3000/hook",
    // Other spellings of loopback that URL parsing normalises.
    "http://0x7f000001/hook",
    "http://2130706433/hook",
    "http://[::]/hook",
    "ftp://example.com/hook",
    "file:///etc/passwd",
    "http://user:pass@example.com/hook",
    "not a url",
    // IPv4 carried inside IPv6, past an IPv4-only check.
    "http://[::127.0.0.1]/",
    "http://[::ffff:0:127.0.0.1]/",
    "http://[64:ff9b:1::a00:1]/",
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://[2002:7f00:1::1]/",
    "http://[2002:a00:1::1]/",
    "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
    // Reserved IPv6 ranges.
    "http://[fec0::1]/",
    "http://[2001:db8::1]/",
    "http://[4000::1]/",
  ]) {
    test(`${url} is refused`, async () => {
      const problem = assertProblem(await register(url), 400, "validation_failed");
      assert.equal(problem.errors[0].path, "/body/url");
      if (/localhost|\/\/127\.|\[::1\]|\[::ffff:127|0x7f|2130706433/.test(url))
        assert.match(problem.detail, /loopback/);
    });
  }

  test("nothing was stored", async () => {
    const answer = expectStatus(await call(fx.app, "GET", `/webhooks/${appId}`, { token }), 200);
    assert.deepEqual(answer, []);
  });
});

test("address classes", () => {
  const cases: [string, boolean][] = [
    ["8.8.8.8", true],
    ["93.184.216.34", true],
    ["2606:4700:4700::1111", true],
    ["127.0.0.1", false],
    ["10.255.255.255", false],
    ["172.31.255.255", false],
    ["172.32.0.1", true],
    ["169.254.169.254", false],
    ["100.127.255.255", false],
    ["224.0.0.1", false],
    ["255.255.255.255", false],
    ["::1", false],
    ["fe80::1", false],
    ["fc00::1", false],
    ["ff02::1", false],
    ["::ffff:10.0.0.1", false],
    ["::ffff:7f00:1", false],
    ["64:ff9b::a9fe:a9fe", false],
    ["::ffff:8.8.8.8", true],
    ["2001:4860:4860::8888", true],
    // The well-known NAT64 prefix is what DNS64 answers for a public IPv4-only name: judged by
    // the IPv4 address it carries.
    ["64:ff9b::808:808", true],
    ["64:ff9b::7f00:1", false],
    // IPv4-compatible (deprecated), IPv4-translated, local-use NAT64, 6to4 and Teredo: refused
    // whatever they carry.
    ["::127.0.0.1", false],
    ["::8.8.8.8", false],
    ["::ffff:0:127.0.0.1", false],
    ["::ffff:0:8.8.8.8", false],
    ["64:ff9b:1::a00:1", false],
    ["2002:7f00:1::1", false],
    ["2002:a00:1::1", false],
    ["2002:808:808::1", false],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", false],
    ["fec0::1", false],
    ["100::1", false],
    ["2001:db8::1", false],
    ["4000::1", false],
    ["192.0.0.8", false],
    ["198.18.0.1", false],
    ["0.0.0.0", false],
  ];
  for (const [address, allowed] of cases) {
    assert.equal(refusalOf(address, false) === undefined, allowed, address);
  }
  // The development setting opens loopback only, not loopback carried by a tunnel form.
  assert.equal(refusalOf("127.0.0.1", true), undefined);
  assert.equal(refusalOf("::1", true), undefined);
  assert.notEqual(refusalOf("::127.0.0.1", true), undefined);
  assert.notEqual(refusalOf("2002:7f00:1::1", true), undefined);
  assert.notEqual(refusalOf("64:ff9b::7f00:1", true), undefined);
  assert.notEqual(refusalOf("10.0.0.1", true), undefined);
  assert.notEqual(refusalOf("169.254.169.254", true), undefined);
});

test("the address is checked again at delivery time: a refused one is never contacted", async () => {
  const receiver = new Receiver();
  try {
    const url = await receiver.start();
    // An endpoint whose address became a loopback one after registration (e.g. DNS rebinding).
    const endpoint = expectStatus(
      await call(fx.app, "POST", `/webhooks/${appId}`, {
        token,
        body: { url: "https://93.184.216.34/hook", events: ["payment.*"] },
      }),
      201,
    );
    await fx.app.deps.db.update(webhookEndpoints).set({ url }).where(eq(webhookEndpoints.id, endpoint.id));
    await fx.app.deps.db.transaction((tx) =>
      emitEvent(fx.app.deps, tx, { appId, type: "payment.paid", data: { id: "pay_x" } }),
    );
    // An attempt is counted before it is made (deliver.ts): its outcome is the status leaving pending.
    const [delivery] = await waitForDeliveries(
      fx.app,
      token,
      appId,
      endpoint.id,
      (d) => d[0]?.attempt_count >= 1 && d[0].status !== "pending",
    );
    assert.equal(receiver.received.length, 0);
    assert.equal(delivery.status, "retrying");
    assert.equal(delivery.attempts[0].status_code, null);
    assert.match(delivery.attempts[0].error, /loopback/);
  } finally {
    await receiver.stop();
  }
});

test("a delivery connects to the address that was checked, with the URL's name as Host", async () => {
  const receiver = new Receiver();
  try {
    const url = new URL(await receiver.start());
    // The name does not resolve at all: only the pinned address can be reached.
    const target = new URL(`http://receiver.invalid:${url.port}/hook`);
    const result = await send({ url: target, address: "127.0.0.1", family: 4 }, {}, "{}");
    assert.equal(result.statusCode, 200);
    assert.equal(receiver.received.length, 1);
    assert.equal(receiver.received[0].headers.host, `receiver.invalid:${url.port}`);
  } finally {
    await receiver.stop();
  }
});

test("a redirect is not followed: a 3xx is a failed attempt", async () => {
  const receiver = new Receiver();
  receiver.statuses = [302];
  try {
    const url = new URL(await receiver.start());
    const result = await send({ url, address: "127.0.0.1", family: 4 }, {}, "{}");
    assert.equal(result.statusCode, 302);
    assert.equal(receiver.received.length, 1);
  } finally {
    await receiver.stop();
  }
});
