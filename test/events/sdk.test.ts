// The SDK's event log: `client.events.list` and `get`, typed by event type, and
// `client.events.stream`, an async iterator over the service's server-sent events that resumes
// after the last event received, across a dropped connection too.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Client, type WebhookEvent } from "../../sdk/src/index.ts";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp } from "../helpers/browser.ts";
import { tenantFixture } from "../helpers/http.ts";
import { apiKeyOf } from "../helpers/prices.ts";

let t: TestApp;
let base: string;
let appId: string;
let otherAppId: string;
let key: string;
let client: Client;
let priceId: string;

before(async () => {
  ({ t, base } = await buildServedApp());
  const f = await tenantFixture(t);
  appId = f.app.id;
  otherAppId = f.otherApp.id;
  key = await apiKeyOf(t, f.owner.token, appId);
  client = new Client({ baseUrl: base, apiKey: key });
  priceId = (await client.prices.create(appId, { name: "Ticket", amount: 20, currency: "usd" })).id;
});
after(() => t?.close());

const card = { type: "card" as const, number: "4242424242424242", exp_month: 12, exp_year: 2030, cvc: "123" };
const newPayment = async () =>
  (await client.payments.create(appId, { price_id: priceId, payment_provider: "card" })).id;

/** The next `count` events of an iterator, within 20 s. */
async function take(events: AsyncIterator<WebhookEvent>, count: number): Promise<WebhookEvent[]> {
  const taken: WebhookEvent[] = [];
  const deadline = setTimeout(() => events.return?.(), 20_000);
  try {
    while (taken.length < count) {
      const { value, done } = await events.next();
      assert.ok(!done, `the stream ended after ${taken.length} of ${count} events`);
      taken.push(value);
    }
    return taken;
  } finally {
    clearTimeout(deadline);
  }
}

test("events.list and events.get answer typed events", async () => {
  const paymentId = await newPayment();
  const listed = await client.events.list(appId, { type: "payment.pending" }).toArray();
  const mine = listed.find((event) => event.type === "payment.pending" && event.data.id === paymentId);
  assert.ok(mine, "the payment's event is listed");
  const read = await client.events.get(appId, mine.id);
  assert.deepEqual({ ...read }, mine);
  assert.match(read.lastResponse.requestId ?? "", /^req_/);
  if (read.type === "payment.pending") assert.equal(read.data.status, "pending");
  else assert.fail(`read ${read.type}`);
});

test("events.stream yields new events, then resumes after lastEventId with the ones missed", async () => {
  const controller = new AbortController();
  const stream = client.events.stream(appId, { signal: controller.signal });
  const live = stream[Symbol.asyncIterator]();
  // The stream opens on the first `next()`: events from then on come.
  const first = take(live, 1);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const one = await newPayment();
  const [event] = await first;
  assert.equal(event.type, "payment.pending");
  assert.equal(event.data.id, one);
  assert.equal(stream.lastEventId, event.id);
  controller.abort();
  assert.deepEqual(await live.next(), { value: undefined, done: true }, "an abort ends the loop quietly");

  const two = await newPayment();
  await client.payments.confirm(appId, one, { payment_method: card });
  const resumed = client.events.stream(appId, { lastEventId: event.id });
  const seen: WebhookEvent[] = [];
  for await (const next of resumed) {
    seen.push(next);
    if (seen.length === 3) break; // `break` hangs up
  }
  assert.deepEqual(
    seen.map((e) => `${e.type} ${"id" in e.data ? e.data.id : ""}`).sort(),
    [`payment.hold ${one}`, `payment.paid ${one}`, `payment.pending ${two}`].sort(),
  );
  assert.equal(resumed.lastEventId, seen[2]?.id);
});

test("a dropped connection is opened again after the last event received: nothing lost or repeated", async () => {
  const lastEventIds: (string | null)[] = [];
  let connections = 0;
  // Cuts the first stream connection right after its first event.
  const cutting: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (!String(input).includes("/stream")) return response;
    lastEventIds.push(new Headers(init?.headers).get("last-event-id"));
    connections += 1;
    if (connections > 1 || !response.body) return response;
    const reader = response.body.getReader();
    let text = "";
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await reader.read();
        if (done) return controller.close();
        controller.enqueue(value);
        text += new TextDecoder().decode(value);
        if (text.includes("data:")) {
          await reader.cancel();
          controller.error(new TypeError("terminated"));
        }
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  const flaky = new Client({ baseUrl: base, apiKey: key, fetch: cutting });
  const stream = flaky.events.stream(appId, { type: "payment.pending" });
  const events = stream[Symbol.asyncIterator]();
  const firstTwo = take(events, 1);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const a = await newPayment();
  const [first] = await firstTwo;
  const b = await newPayment();
  const c = await newPayment();
  const rest = await take(events, 2);
  await events.return?.();
  assert.deepEqual(
    [first, ...rest].map((e) => ("id" in e.data ? e.data.id : undefined)),
    [a, b, c],
  );
  assert.equal(connections, 2, "one reconnection");
  assert.deepEqual(lastEventIds, [null, first.id], "the second connection resumed after the first event");
});

test("a refused stream throws the typed error", async () => {
  await assert.rejects(
    (async () => {
      for await (const _ of client.events.stream(otherAppId)) assert.fail("no event of another app");
    })(),
    { name: "NotFoundError", status: 404 },
  );
  await assert.rejects(
    (async () => {
      for await (const _ of client.events.stream(appId, { lastEventId: "evt_unknown" })) assert.fail();
    })(),
    { name: "InvalidRequestError", status: 400 },
  );
});
