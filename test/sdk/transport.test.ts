// What the SDK does with what a server answers, against a stand-in server for what the service
// cannot be made to do on demand: per-call options on every method, response metadata, its
// User-Agent, a body that stalls after its headers, a 2xx that is not JSON, each error family, and
// webhook signing for tests.
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import {
  ApiError,
  AuthenticationError,
  Client,
  ConflictError,
  ConnectionError,
  IdempotencyError,
  InvalidRequestError,
  InvalidResponseError,
  NotFoundError,
  PaymentDeclinedError,
  PaymentsError,
  PermissionError,
  RateLimitError,
  ServerError,
  signTestWebhook,
  VERSION,
  verifyWebhook,
  WebhookVerificationError,
} from "../../sdk/src/index.ts";

type Answer = (req: IncomingMessage, res: ServerResponse) => void;

describe("the SDK's transport", () => {
  let standIn: Server;
  let url: string;
  const seen: IncomingMessage[] = [];
  let answers: Answer[] = [];

  before(async () => {
    standIn = createServer((req, res) => {
      seen.push(req);
      req.resume();
      // A request a test means to go unanswered says so: on a busy machine it can arrive after its
      // test ended (its client already gave up), and must not take the next test's answer.
      if (req.headers["x-test-expects"] === "silence") return;
      answers.shift()?.(req, res); // none left: silence
    });
    await new Promise<void>((resolve) => standIn.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
  });
  after(async () => {
    standIn.closeAllConnections();
    await new Promise((resolve) => standIn.close(resolve));
  });

  const json =
    (status: number, body: unknown, headers: Record<string, string> = {}): Answer =>
    (_req, res) => {
      res.writeHead(status, {
        "content-type": "application/json",
        "x-request-id": "req_standin",
        ...headers,
      });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
  const client = (options: { maxRetries?: number; timeoutMs?: number } = {}) =>
    new Client({ baseUrl: url, apiKey: "sk_test", retryBaseDelayMs: 1, ...options });

  test("User-Agent names the package, its version and the runtime", async () => {
    seen.length = 0;
    answers = [json(200, { id: "price_1" })];
    await client().prices.get("app_1", "price_1");
    assert.equal(seen[0]?.headers["user-agent"], `@payments-backend/sdk/${VERSION} node/${process.version}`);
  });

  test("every method takes per-call options: headers, timeoutMs, maxRetries, signal (lists too)", async () => {
    seen.length = 0;
    answers = [json(200, { id: "price_1" })];
    await client().prices.get("app_1", "price_1", { headers: { "x-trace": "t1" }, timeoutMs: 5_000 });
    assert.equal(seen[0]?.headers["x-trace"], "t1");

    seen.length = 0;
    answers = [json(503, { code: "chain_unavailable" })];
    await assert.rejects(client().wallets.get("app_1", "w_1", { maxRetries: 0 }), ServerError);
    assert.equal(seen.length, 1, "maxRetries: 0 for this call: one try");

    seen.length = 0;
    const silence = { "x-test-expects": "silence" };
    await assert.rejects(
      client({ timeoutMs: 10_000 }).apps.get("app_1", { headers: silence, timeoutMs: 100, maxRetries: 0 }),
      {
        name: "ConnectionError",
        timedOut: true,
      },
    );

    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop listing")), 50);
    await assert.rejects(
      client({ timeoutMs: 10_000 })
        .payments.list("app_1", { limit: 5 }, { headers: silence, signal: controller.signal })
        .page(),
      /stop listing/,
    );
  });

  test("answers carry lastResponse: request id, status, headers, replayed; a 204 too", async () => {
    answers = [json(201, { id: "pay_1" }, { "idempotent-replayed": "true" })];
    const payment = await client().payments.create(
      "app_1",
      { price_id: "price_1", payment_provider: "card" },
      { idempotencyKey: "order-9" },
    );
    assert.deepEqual(
      {
        requestId: payment.lastResponse.requestId,
        statusCode: payment.lastResponse.statusCode,
        idempotentReplayed: payment.lastResponse.idempotentReplayed,
        idempotencyKey: payment.lastResponse.idempotencyKey,
      },
      { requestId: "req_standin", statusCode: 201, idempotentReplayed: true, idempotencyKey: "order-9" },
    );
    answers = [json(204, undefined)];
    const deleted = await client().prices.delete("app_1", "price_1");
    assert.equal(deleted.lastResponse.statusCode, 204);
    answers = [json(200, [{ id: "pay_1" }], { "x-total-count": "1" })];
    const page = await client().payments.list("app_1").page();
    assert.equal(page.lastResponse.requestId, "req_standin");
  });

  test("a body that stalls after its headers is a connection failure, tried again", async () => {
    const stall: Answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id":'); // and nothing more
    };
    seen.length = 0;
    answers = [stall, json(200, { id: "app_1" })];
    const app = await client({ timeoutMs: 150 }).apps.get("app_1");
    assert.equal(app.id, "app_1");
    assert.equal(seen.length, 2, "the stalled try was retried");

    answers = [stall, stall];
    await assert.rejects(client({ timeoutMs: 150, maxRetries: 1 }).apps.get("app_1"), (error: unknown) => {
      assert.ok(error instanceof ConnectionError && error instanceof PaymentsError);
      assert.equal(error.timedOut, true);
      return true;
    });
  });

  test("a 2xx that is not JSON is an InvalidResponseError, not a SyntaxError", async () => {
    answers = [
      (_req, res) => {
        res.writeHead(200, { "content-type": "text/html", "x-request-id": "req_html" });
        res.end("<html>proxy login</html>");
      },
    ];
    await assert.rejects(client().apps.get("app_1"), (error: unknown) => {
      assert.ok(error instanceof InvalidResponseError);
      assert.equal(error.status, 200);
      assert.equal(error.requestId, "req_html");
      assert.match(error.body, /proxy login/);
      return true;
    });
  });

  test("a report answered as text/csv is its text", async () => {
    answers = [
      (_req, res) => {
        res.writeHead(200, { "content-type": "text/csv; charset=utf-8" });
        res.end("id,amount\nbtx_1,5.00\n");
      },
    ];
    const csv = await client().ledger.balanceTransactionsCsv("app_1");
    assert.equal(csv, "id,amount\nbtx_1,5.00\n");
  });

  test("each problem is thrown as its family's class, with status, code, fields and request id", async () => {
    const cases: [number, string, new (...args: never[]) => ApiError, Record<string, string>?][] = [
      [400, "validation_failed", InvalidRequestError],
      [401, "unauthenticated", AuthenticationError],
      [402, "payment_declined", PaymentDeclinedError],
      [403, "forbidden", PermissionError],
      [404, "not_found", NotFoundError],
      [409, "invalid_state_transition", ConflictError],
      [409, "idempotency_key_reused", IdempotencyError],
      [429, "rate_limited", RateLimitError, { "retry-after": "7" }],
      [500, "internal", ServerError],
    ];
    for (const [status, code, family, headers] of cases) {
      answers = [
        json(status, { code, detail: "no", errors: [{ path: "/body/x", message: "bad" }] }, headers),
      ];
      await assert.rejects(client({ maxRetries: 0 }).apps.get("app_1"), (error: unknown) => {
        assert.ok(error instanceof family, `${code} is a ${family.name}`);
        assert.ok(error instanceof ApiError && error instanceof PaymentsError);
        assert.equal(error.status, status);
        assert.equal(error.code, code);
        assert.deepEqual(error.errors, [{ path: "/body/x", message: "bad" }]);
        assert.equal(error.requestId, "req_standin");
        if (error instanceof RateLimitError) assert.equal(error.retryAfterSeconds, 7);
        return true;
      });
    }
  });
});

describe("webhook signing for tests", () => {
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  const event = {
    id: "evt_1",
    type: "payment.paid",
    timestamp: new Date().toISOString(),
    app_id: "app_1",
    data: { id: "pay_1" },
  };

  test("signTestWebhook signs what verifyWebhook accepts", () => {
    const { payload, headers } = signTestWebhook(event, secret);
    assert.deepEqual(verifyWebhook(payload, headers, secret), event);
    assert.deepEqual(verifyWebhook(payload, new Headers(headers), secret), event, "a fetch Headers too");
  });

  test("a changed body, another secret or a stale timestamp throw WebhookVerificationError", () => {
    const { payload, headers } = signTestWebhook(event, secret);
    const refused = (f: () => unknown) =>
      assert.throws(f, (error: unknown) => error instanceof WebhookVerificationError);
    refused(() => verifyWebhook(payload.replace("pay_1", "pay_2"), headers, secret));
    refused(() => verifyWebhook(payload, headers, "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"));
    const old = signTestWebhook(event, secret, { timestamp: new Date(Date.now() - 10 * 60_000) });
    refused(() => verifyWebhook(old.payload, old.headers, secret));
    refused(() => verifyWebhook(payload, {}, secret));
  });
});
