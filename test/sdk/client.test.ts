// The SDK against the real service over HTTP, and against a stand-in server for what the service
// cannot be made to do on demand (429, 503, silence).
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { ApiError, Client, ConnectionError, verifyWebhook } from "../../sdk/src/index.ts";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp, freePort } from "../helpers/browser.ts";

const card = { type: "card" as const, number: "4242424242424242", exp_month: 12, exp_year: 2030, cvc: "123" };

describe("against the service", () => {
  let t: TestApp;
  let base: string;
  let owner: Client;
  let server: Client;
  let appId: string;
  let priceId: string;

  before(async () => {
    ({ t, base } = await buildServedApp());
    owner = new Client({ baseUrl: base });
    const name = `sdk${Date.now().toString(36)}`;
    await owner.auth.signUp({
      email: `${name}@example.com`,
      password: "correct horse battery staple",
      username: name,
      first_name: "Sdk",
      last_name: "Example",
    });
    appId = (await owner.apps.create({ name: "SDK shop", app_fee: 0, use_explorer: false })).id;
    const { key } = await owner.apiKeys.create(appId, { name: "server" });
    server = new Client({ baseUrl: base, apiKey: key });
    priceId = (await server.prices.create(appId, { name: "Ticket", amount: 20, currency: "usd" })).id;
  });
  after(() => t?.close());

  test("a create with the same Idempotency-Key answers the same payment; a confirm pays it", async () => {
    const body = { price_id: priceId, payment_provider: "card" as const };
    const first = await server.payments.create(appId, body, { idempotencyKey: "order-1" });
    const again = await server.payments.create(appId, body, { idempotencyKey: "order-1" });
    assert.equal(again.id, first.id);
    assert.equal(first.lastResponse.idempotentReplayed, false);
    assert.equal(again.lastResponse.idempotentReplayed, true, "the second answer was replayed");
    assert.equal(again.lastResponse.idempotencyKey, "order-1");
    assert.equal(again.lastResponse.statusCode, 201);
    assert.match(again.lastResponse.requestId ?? "", /^req_/);
    assert.equal(JSON.stringify(again).includes("lastResponse"), false, "metadata is not part of the JSON");
    const other = await server.payments.create(appId, body);
    assert.notEqual(other.id, first.id, "without a key of yours, each call is its own payment");
    const confirmed = await server.payments.confirm(appId, first.id, { payment_method: card });
    assert.equal(confirmed.id, first.id);
    const read = await server.payments.get(appId, first.id);
    assert.equal(read.price.id, priceId);
  });

  test("refusals throw ApiError with the problem's code, fields and request id", async () => {
    await assert.rejects(
      server.payments.create(appId, { price_id: priceId, payment_provider: "cash" as never }),
      (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.status, 400);
        assert.equal(error.code, "validation_failed");
        assert.ok(error.errors.some((e) => e.path === "/body/payment_provider"));
        assert.match(error.requestId ?? "", /^req_/);
        return true;
      },
    );
    await assert.rejects(server.payments.get(appId, "pay_unknown"), {
      name: "NotFoundError",
      status: 404,
      code: "not_found",
    });
  });

  test("a list walks every page by cursor, each item once", async () => {
    const made = new Set<string>();
    for (let i = 0; i < 5; i++) {
      made.add((await server.payments.create(appId, { price_id: priceId, payment_provider: "card" })).id);
    }
    const walked: string[] = [];
    for await (const payment of server.payments.list(appId, { limit: 2 })) walked.push(payment.id);
    assert.equal(new Set(walked).size, walked.length, "no item twice");
    for (const id of made) assert.ok(walked.includes(id), `${id} listed`);
    const first = await server.payments.list(appId, { limit: 2 }).page();
    assert.equal(first.data.length, 2);
    assert.equal(first.hasMore, true);
    assert.equal(first.total, walked.length);
  });

  test("verifyWebhook refuses a body that was not signed with the secret", () => {
    const headers = { "webhook-id": "msg_1", "webhook-timestamp": String(Math.floor(Date.now() / 1000)) };
    assert.throws(() =>
      verifyWebhook(
        "{}",
        { ...headers, "webhook-signature": "v1,AAAA" },
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      ),
    );
  });
});

describe("retries, time limits and aborts (a stand-in server)", () => {
  let standIn: Server;
  let url: string;
  const seen: { method: string; key: string | undefined }[] = [];
  let answers: ((req: IncomingMessage, res: ServerResponse) => void)[] = [];

  before(async () => {
    standIn = createServer((req, res) => {
      seen.push({ method: req.method ?? "", key: req.headers["idempotency-key"] as string | undefined });
      req.resume();
      const answer = answers.shift();
      if (answer) answer(req, res);
      // No answer left: silence, for the time-limit test.
    });
    await new Promise<void>((resolve) => standIn.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
  });
  after(async () => {
    standIn.closeAllConnections();
    await new Promise((resolve) => standIn.close(resolve));
  });

  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    ((_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(JSON.stringify(body));
    }) as (req: IncomingMessage, res: ServerResponse) => void;
  const client = (options: { maxRetries?: number; timeoutMs?: number } = {}) =>
    new Client({ baseUrl: url, apiKey: "sk_test", retryBaseDelayMs: 1, ...options });

  test("429 (Retry-After) and 503 are tried again, with the same Idempotency-Key", async () => {
    seen.length = 0;
    answers = [
      json(429, { code: "rate_limited" }, { "retry-after": "0" }),
      json(503, { code: "unavailable" }),
      json(201, { id: "pay_1" }),
    ];
    const payment = await client().payments.create("app_1", {
      price_id: "price_1",
      payment_provider: "card",
    });
    assert.equal(payment.id, "pay_1");
    assert.equal(seen.length, 3);
    assert.ok(seen[0].key, "a key was made for the call");
    assert.ok(
      seen.every((s) => s.key === seen[0].key),
      "the same key on every try",
    );
  });

  test("after the last try, the problem is thrown; a 400 is never tried again", async () => {
    seen.length = 0;
    answers = [json(503, { code: "unavailable" }), json(503, { code: "unavailable", request_id: "req_x" })];
    await assert.rejects(client({ maxRetries: 1 }).apps.get("app_1"), { status: 503, requestId: "req_x" });
    assert.equal(seen.length, 2);
    seen.length = 0;
    answers = [json(400, { code: "validation_failed", errors: [{ path: "/body/name", message: "x" }] })];
    await assert.rejects(client().apps.get("app_1"), { code: "validation_failed" });
    assert.equal(seen.length, 1);
  });

  test("a POST that honours no key (log-in) is sent once", async () => {
    seen.length = 0;
    answers = [json(503, { code: "unavailable" })];
    await assert.rejects(client().auth.logIn({ email: "a@example.com", password: "x" }), { status: 503 });
    assert.equal(seen.length, 1);
    assert.equal(seen[0].key, undefined);
  });

  test("a silent server: each try times out, then ConnectionError says so", async () => {
    seen.length = 0;
    answers = [];
    await assert.rejects(client({ maxRetries: 1, timeoutMs: 100 }).apps.get("app_1"), (error: unknown) => {
      assert.ok(error instanceof ConnectionError);
      assert.equal(error.timedOut, true);
      return true;
    });
    assert.equal(seen.length, 2);
  });

  test("the caller's AbortSignal stops the call at once, with no retry", async () => {
    seen.length = 0;
    answers = [];
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user went away")), 50);
    await assert.rejects(
      client({ timeoutMs: 10_000 }).payments.create(
        "app_1",
        { price_id: "price_1", payment_provider: "card" },
        { signal: controller.signal },
      ),
      /user went away/,
    );
    assert.equal(seen.length, 1);
  });

  test("nothing listening: ConnectionError after the retries", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const offline = new Client({ baseUrl: closed, retryBaseDelayMs: 1, maxRetries: 1 });
    await assert.rejects(offline.apps.list().page(), (error: unknown) => {
      assert.ok(error instanceof ConnectionError);
      assert.equal(error.timedOut, false);
      return true;
    });
  });
});
