// The event log: every event an app emitted, whether or not an endpoint listened, listed newest
// first by cursor with type and date filters, one event by id, and nothing of another app's.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { Receiver } from "../helpers/webhooks.ts";

const fx = useTestApp({ WEBHOOKS_ALLOW_LOOPBACK: "true" });

const owner = () => fx.tenants.owner.token;
const appId = () => fx.tenants.app.id;

async function list(query = "", token = owner(), app = appId()) {
  return call(fx.app, "GET", `/events/${app}${query}`, { token });
}

/** A payment of a new price: created (payment.pending), and paid when `pay` is set. */
async function payment(pay: boolean) {
  const price = await createPrice(fx.app, owner(), appId());
  const created = await createPayment(fx.app, owner(), appId(), {
    price_id: price.id,
    payment_provider: "card",
  });
  if (pay) {
    expectStatus(await confirm(fx.app, owner(), appId(), created.id, card(CARDS.ok)), 200);
    await waitForStatus(fx.app, owner(), appId(), created.id, "paid");
  }
  return created.id as string;
}

const ofPayment = (events: any[], paymentId: string) => events.filter((e) => e.data.id === paymentId);

describe("GET /events/{app_id}", () => {
  test("stores every event although no endpoint listens, newest first, in the delivered shape", async () => {
    const paymentId = await payment(true);
    const events = expectStatus(await list(), 200);
    const mine = ofPayment(events, paymentId);
    assert.deepEqual(
      mine.map((e) => e.type),
      ["payment.paid", "payment.hold", "payment.pending"],
      "every status change, newest first",
    );
    for (const event of mine) {
      assert.deepEqual(Object.keys(event), ["id", "type", "timestamp", "app_id", "data"]);
      assert.match(event.id, /^evt_/);
      assert.equal(event.app_id, appId());
    }
    assert.deepEqual(mine[2].data, {
      id: paymentId,
      status: "pending",
      previous_status: null,
      reason: "created",
      sequence: 1,
    });
    const one = expectStatus(
      await call(fx.app, "GET", `/events/${appId()}/${mine[0].id}`, { token: owner() }),
      200,
    );
    assert.deepEqual(one, mine[0]);
  });

  test("an item is the JSON a webhook delivery of the same event carries, byte for byte", async () => {
    const receiver = new Receiver();
    try {
      expectStatus(
        await call(fx.app, "POST", `/webhooks/${appId()}`, {
          token: owner(),
          body: { url: await receiver.start(), events: ["payment.pending"] },
        }),
        201,
      );
      const paymentId = await payment(false);
      const deadline = Date.now() + 20_000;
      while (receiver.received.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const [delivered] = receiver.received;
      assert.ok(delivered, "the endpoint got the event");
      const id = delivered.headers["webhook-id"];
      const answer = await call(fx.app, "GET", `/events/${appId()}/${id}`, { token: owner() });
      assert.equal(answer.status, 200);
      assert.equal(answer.text, delivered.body);
      assert.equal(JSON.parse(answer.text).data.id, paymentId);
    } finally {
      await receiver.stop();
    }
  });

  test("pages by cursor through every event once, with the usual Link and count headers", async () => {
    await payment(false);
    await payment(false);
    const first = await list("?limit=2");
    assert.equal(first.status, 200);
    assert.equal(first.body.length, 2);
    const total = Number(first.headers["x-total-count"]);
    assert.ok(total >= 4, `${total} events`);
    // From the first record on by cursor (keyset), following each page's `next` link.
    const seen: string[] = [first.body[0].id];
    let page = await list(`?limit=2&starting_after=${first.body[0].id}`);
    for (;;) {
      assert.equal(page.status, 200);
      seen.push(...page.body.map((e: any) => e.id));
      const next = /<([^>]+)>; rel="next"/.exec(String(page.headers.link))?.[1];
      if (!next) break;
      assert.match(next, /starting_after=evt_/);
      page = await call(fx.app, "GET", next, { token: owner() });
    }
    assert.equal(seen.length, total);
    assert.equal(new Set(seen).size, total, "no event twice");
    const all = expectStatus(await list("?limit=100"), 200);
    assert.deepEqual(
      seen,
      all.map((e: any) => e.id),
    );
    const second = expectStatus(await list("?limit=2&page=2"), 200);
    assert.deepEqual(
      second.map((e: any) => e.id),
      seen.slice(2, 4),
      "page numbers give the same order",
    );
  });

  test("filters by type, by family and by date", async () => {
    const paidId = await payment(true);
    const pendingOnly = await payment(false);
    const paid = expectStatus(await list("?type=payment.paid&limit=100"), 200);
    assert.ok(paid.length > 0);
    assert.ok(paid.every((e: any) => e.type === "payment.paid"));
    assert.ok(ofPayment(paid, paidId).length === 1 && ofPayment(paid, pendingOnly).length === 0);

    const family = expectStatus(await list("?type=payment.*&limit=100"), 200);
    assert.deepEqual(
      ofPayment(family, paidId).map((e: any) => e.type),
      ["payment.paid", "payment.hold", "payment.pending"],
    );
    assert.equal(expectStatus(await list("?type=kyc.*"), 200).length, 0);
    const everything = expectStatus(await list("?type=*&limit=100"), 200);
    assert.equal(everything.length, expectStatus(await list("?limit=100"), 200).length);

    const all = expectStatus(await list("?limit=100"), 200);
    const [newest] = ofPayment(all, pendingOnly);
    const from = encodeURIComponent(newest.timestamp);
    const since = expectStatus(await list(`?created[gte]=${from}&limit=100`), 200);
    assert.ok(since.some((e: any) => e.id === newest.id));
    assert.ok(since.every((e: any) => e.timestamp >= newest.timestamp));
    assert.equal(ofPayment(since, paidId).length, 0, "older events are left out");
    const until = expectStatus(await list(`?created[lte]=${from}&limit=100`), 200);
    assert.ok(until.every((e: any) => e.timestamp <= newest.timestamp));
    assert.ok(ofPayment(until, paidId).length === 3);
  });

  test("bad filters are 400 naming the field", async () => {
    const typo = await list("?type=payment.paiid");
    assertProblem(typo, 400, "validation_failed");
    assert.equal(typo.body.errors[0].path, "/query/type");
    const date = await list("?created[gte]=yesterday");
    assertProblem(date, 400, "validation_failed");
    assert.match(date.body.errors[0].path, /created/);
    const cursor = await list("?starting_after=evt_nope");
    assertProblem(cursor, 400, "validation_failed");
    assert.equal(cursor.body.errors[0].path, "/query/starting_after");
  });

  test("an API key of the app reads its events; another app's events are 404", async () => {
    const key = await fx.key();
    const events = expectStatus(await list("", key), 200);
    assert.ok(events.length > 0);
    const mine = events[0].id;
    // Someone else's app, and this app's event asked for through someone else's app.
    assertProblem(await list("", fx.tenants.outsider.token), 404, "not_found");
    assertProblem(
      await call(fx.app, "GET", `/events/${appId()}/${mine}`, { token: fx.tenants.outsider.token }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "GET", `/events/${fx.tenants.otherApp.id}/${mine}`, {
        token: fx.tenants.outsider.token,
      }),
      404,
      "not_found",
    );
    assertProblem(await list("", key, fx.tenants.otherApp.id), 404, "not_found");
    // A member of the app (developer) reads them too.
    assert.equal((await list("", fx.tenants.developer.token)).status, 200);
    assertProblem(
      await call(fx.app, "GET", `/events/${appId()}/evt_unknown`, { token: owner() }),
      404,
      "not_found",
    );
  });

  test("a test event sent to one endpoint is a delivery sample, not an event of the app", async () => {
    const receiver = new Receiver();
    try {
      const endpoint = expectStatus(
        await call(fx.app, "POST", `/webhooks/${appId()}`, {
          token: owner(),
          body: { url: await receiver.start(), events: ["kyc.updated"] },
        }),
        201,
      );
      const sent = expectStatus(
        await call(fx.app, "POST", `/webhooks/${appId()}/${endpoint.id}/test`, { token: owner() }),
        202,
      );
      assertProblem(
        await call(fx.app, "GET", `/events/${appId()}/${sent.event.id}`, { token: owner() }),
        404,
        "not_found",
      );
      const events = expectStatus(await list("?limit=100"), 200);
      assert.ok(!events.some((e: any) => e.type === "webhook.test"));
    } finally {
      await receiver.stop();
    }
  });
});
