// GET /events/{app_id}/stream: the app's events as server-sent events, live, resumed after the
// last one received (Last-Event-ID or ?after=), read here with fetch as any client would.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sql } from "drizzle-orm";
import pg from "pg";
import { emitEvent } from "../../src/modules/webhooks/events.ts";
import { onPostgres, type TestApp } from "../helpers/app.ts";
import { buildServedApp } from "../helpers/browser.ts";
import { assertProblem, call, expectStatus, tenantFixture } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { apiKeyOf, createPrice } from "../helpers/prices.ts";
import { type SentEvent, SseReader } from "../helpers/sse.ts";

let t: TestApp;
let base: string;
let f: Awaited<ReturnType<typeof tenantFixture>>;
let key: string;
let priceId: string;

before(async () => {
  ({ t, base } = await buildServedApp());
  f = await tenantFixture(t);
  key = await apiKeyOf(t, f.owner.token, f.app.id);
  priceId = (await createPrice(t, key, f.app.id)).id;
});
after(() => t?.close());

const auth = (credential = key) => ({ authorization: `Bearer ${credential}` });
const streamUrl = (query = "", app = f.app.id) => `${base}/events/${app}/stream${query}`;

async function newPayment(): Promise<string> {
  return (await createPayment(t, key, f.app.id, { price_id: priceId, payment_provider: "card" })).id;
}

/** What GET /events/{app_id}/{event_id} answers, as text. */
async function listed(eventId: string): Promise<string> {
  const answer = await call(t, "GET", `/events/${f.app.id}/${eventId}`, { token: key });
  assert.equal(answer.status, 200, answer.text);
  return answer.text;
}

const dataOf = (event: SentEvent) => JSON.parse(event.data);

describe("GET /events/{app_id}/stream", () => {
  test("sends each new event with its id, type and the JSON the list answers", async () => {
    const stream = await SseReader.open(streamUrl(), auth());
    try {
      assert.equal(stream.response.status, 200);
      assert.match(String(stream.response.headers.get("content-type")), /^text\/event-stream/);
      const paymentId = await newPayment();
      const [event] = await stream.take(1);
      assert.equal(event.event, "payment.pending");
      assert.match(event.id ?? "", /^evt_/);
      assert.equal(event.data, await listed(event.id!), "data is the list's item, byte for byte");
      assert.equal(dataOf(event).data.id, paymentId);
      assert.ok(
        stream.comments.some((c) => c.startsWith("retry:")),
        "tells EventSource when to reconnect",
      );

      expectStatus(await confirm(t, key, f.app.id, paymentId, card(CARDS.ok)), 200);
      const [hold, paid] = await stream.take(2);
      assert.deepEqual(
        [hold.event, paid.event],
        ["payment.hold", "payment.paid"],
        "in the order they happened",
      );
    } finally {
      stream.close();
    }
  });

  test("resumes after Last-Event-ID: the missed events first, in order, none twice, then live ones", async () => {
    const first = await SseReader.open(streamUrl(), auth());
    const one = await newPayment();
    const [seen] = await first.take(1);
    assert.equal(dataOf(seen).data.id, one);
    first.close();

    // Missed while disconnected: a payment created and another paid.
    const two = await newPayment();
    expectStatus(await confirm(t, key, f.app.id, one, card(CARDS.ok)), 200);
    await waitForStatus(t, key, f.app.id, one, "paid");

    const again = await SseReader.open(streamUrl(), { ...auth(), "last-event-id": seen.id! });
    try {
      const replayed = await again.take(3);
      assert.deepEqual(
        replayed.map((e) => [e.event, dataOf(e).data.id]).sort(),
        [
          ["payment.hold", one],
          ["payment.paid", one],
          ["payment.pending", two],
        ].sort(),
      );
      assert.ok(!replayed.some((e) => e.id === seen.id), "the last event received is not sent again");
      const hold = replayed.findIndex((e) => e.event === "payment.hold");
      const paid = replayed.findIndex((e) => e.event === "payment.paid");
      assert.ok(hold < paid, "one payment's events keep their order");
      const three = await newPayment();
      const [live] = await again.take(1);
      assert.equal(dataOf(live).data.id, three);
      assert.equal(live.event, "payment.pending");

      // `?after=` does the same for a client that cannot set headers.
      const byQuery = await SseReader.open(streamUrl(`?after=${replayed[2].id}`), auth());
      try {
        const [resumed] = await byQuery.take(1);
        assert.equal(resumed.id, live.id);
      } finally {
        byQuery.close();
      }
    } finally {
      again.close();
    }
  });

  test("an event whose transaction commits late still comes, before those of later transactions", {
    skip: onPostgres ? false : "PGlite runs one transaction at a time: none stays open while another commits",
  }, async () => {
    const stream = await SseReader.open(streamUrl(), auth());
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Written first, committed last: a reader walking `created_at` would have passed it by.
    const late = t.deps.db.transaction(async (tx) => {
      const emitted = await emitEvent(t.deps, tx, {
        appId: f.app.id,
        type: "payment.paid",
        data: { id: "pay_late", status: "paid", previous_status: "hold", reason: "test", sequence: 3 },
      });
      await held;
      return emitted;
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const paymentId = await newPayment();
      // Give the stream two polls with the later event committed and the earlier one not.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      release();
      const { eventId } = await late;
      const [first, second] = await stream.take(2);
      assert.deepEqual(
        [first.id, dataOf(second).data.id],
        [eventId, paymentId],
        "both come, in the order of their transactions",
      );
    } finally {
      release();
      stream.close();
    }
  });

  test("a stream opened from now sends no event committed before it, while an older transaction still runs", {
    skip: onPostgres ? false : "PGlite runs one transaction at a time: none stays open while another commits",
  }, async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // An older transaction with an id, still running: it holds the snapshot's xmin back.
    const older = t.deps.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_current_xact_id()`);
      await held;
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const past = await newPayment();
      const stream = await SseReader.open(streamUrl(), auth());
      try {
        const now = await newPayment();
        // Events wait for every older transaction to end.
        release();
        await older;
        const [first] = await stream.take(1);
        assert.equal(dataOf(first).data.id, now, `the past payment ${past} is not sent`);
      } finally {
        stream.close();
      }
    } finally {
      release();
      await older;
    }
  });

  test("a long transaction in another database of the cluster does not hold the stream back", {
    skip: onPostgres ? false : "PGlite has one database: no other database's transaction exists",
  }, async () => {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    const name = `other_${Date.now()}`;
    await admin.query(`create database ${name}`);
    const target = new URL(String(process.env.DATABASE_URL));
    target.pathname = `/${name}`;
    // A report or a bulk load elsewhere: a transaction with an id, left open.
    const elsewhere = new pg.Client({ connectionString: target.toString() });
    await elsewhere.connect();
    try {
      await elsewhere.query("begin");
      await elsewhere.query("select pg_current_xact_id()");
      const stream = await SseReader.open(streamUrl(), auth());
      try {
        const paymentId = await newPayment();
        // Within a few polls, not when the other transaction ends (it never does here).
        const [event] = await stream.take(1, 8000);
        assert.equal(dataOf(event).data.id, paymentId, "sent while the other transaction runs");
      } finally {
        stream.close();
      }
    } finally {
      await elsewhere.query("rollback").catch(() => {});
      await elsewhere.end();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });

  test("a type filter sends only those events", async () => {
    const stream = await SseReader.open(streamUrl("?type=payment.paid"), auth());
    try {
      const paymentId = await newPayment();
      expectStatus(await confirm(t, key, f.app.id, paymentId, card(CARDS.ok)), 200);
      const [event] = await stream.take(1);
      assert.equal(event.event, "payment.paid");
      assert.equal(dataOf(event).data.id, paymentId);
    } finally {
      stream.close();
    }
  });

  test("refusals are problems, before any event: unknown Last-Event-ID 400, another app 404, no credential 401", async () => {
    const unknown = await fetch(streamUrl(), { headers: { ...auth(), "last-event-id": "evt_unknown" } });
    assert.equal(unknown.status, 400);
    const problem = (await unknown.json()) as any;
    assert.equal(problem.code, "validation_failed");
    assert.equal(problem.errors[0].path, "/headers/last-event-id");
    const byQuery = await fetch(streamUrl("?after=evt_unknown"), { headers: auth() });
    assert.equal(byQuery.status, 400);
    assert.equal(((await byQuery.json()) as any).errors[0].path, "/query/after");

    assert.equal((await fetch(streamUrl(), { headers: auth(f.outsider.token) })).status, 404);
    assert.equal((await fetch(streamUrl("", f.otherApp.id), { headers: auth() })).status, 404);
    // Another app's event id is unknown here, not a hint that it exists.
    const theirs = expectStatus(
      await call(t, "POST", `/prices/${f.otherApp.id}`, {
        token: f.outsider.token,
        body: { name: "Theirs", amount: 5, currency: "usd" },
      }),
      201,
    );
    await createPayment(t, f.outsider.token, f.otherApp.id, {
      price_id: theirs.id,
      payment_provider: "card",
    });
    const [their] = expectStatus(
      await call(t, "GET", `/events/${f.otherApp.id}`, { token: f.outsider.token }),
      200,
    );
    const crossed = await fetch(streamUrl(), { headers: { ...auth(), "last-event-id": their.id } });
    assert.equal(crossed.status, 400);
    await crossed.body?.cancel();
    assertProblem(await call(t, "GET", `/events/${f.app.id}/stream`), 401, "unauthenticated");
  });
});

test("closing the app ends open streams, so the process can exit", async () => {
  const served = await buildServedApp();
  try {
    const tenants = await tenantFixture(served.t);
    const stream = await SseReader.open(`${served.base}/events/${tenants.app.id}/stream`, {
      authorization: `Bearer ${tenants.owner.token}`,
    });
    assert.equal(stream.response.status, 200);
    const closed = served.t.close();
    assert.equal(await stream.next(), undefined, "the stream ends");
    await closed;
  } catch (error) {
    await served.t.close().catch(() => {});
    throw error;
  }
});
