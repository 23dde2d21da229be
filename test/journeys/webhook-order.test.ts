// Journey: a receiver that verifies every delivery with the Standard Webhooks library and puts a
// payment's events in order by their `sequence`, although they arrive out of order: it refuses
// `payment.hold` until `payment.paid` has come, so the retried hold lands last. Only public
// interfaces: the API over HTTP and the deliveries the receiver gets.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import { Webhook } from "standardwebhooks";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp } from "../helpers/browser.ts";
import { eventually } from "../helpers/contract.ts";
import { publicApi } from "../helpers/public-api.ts";

interface PaymentEvent {
  id: string;
  type: string;
  data: { id: string; status: string; previous_status: string | null; sequence: number };
}

/** What a careful receiver keeps: every event once, and per payment the latest state by sequence. */
class OrderingReceiver {
  secret = "";
  url = "";
  readonly arrived: PaymentEvent[] = [];
  readonly latest = new Map<string, { status: string; sequence: number }>();
  rejected = 0;
  refusedHolds = 0;
  private readonly seen = new Set<string>();
  private server: Server | undefined;

  async start() {
    this.server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        res.writeHead(this.receive(req.headers as Record<string, string>, body));
        res.end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  private receive(headers: Record<string, string>, body: string): number {
    let event: PaymentEvent;
    try {
      event = new Webhook(this.secret).verify(body, headers) as PaymentEvent;
    } catch {
      this.rejected += 1;
      return 400;
    }
    // This receiver is slow to take holds: until the payment's `paid` came, a hold is refused and
    // the service retries it later, so it arrives after `paid`.
    if (event.type === "payment.hold" && !this.arrived.some((e) => e.type === "payment.paid")) {
      this.refusedHolds += 1;
      return 503;
    }
    if (this.seen.has(headers["webhook-id"])) return 204; // a redelivery: already applied
    this.seen.add(headers["webhook-id"]);
    this.arrived.push(event);
    const known = this.latest.get(event.data.id);
    // An older event arriving late changes nothing: the higher sequence is the later state.
    if (!known || event.data.sequence > known.sequence) {
      this.latest.set(event.data.id, { status: event.data.status, sequence: event.data.sequence });
    }
    return 204;
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

let t: TestApp;
let api: ReturnType<typeof publicApi>;
const receiver = new OrderingReceiver();

before(async () => {
  // Loopback receivers are allowed for this test server only (a development setting).
  let base: string;
  ({ t, base } = await buildServedApp({ WEBHOOKS_ALLOW_LOOPBACK: "true" }));
  api = publicApi(base);
  await receiver.start();
});
after(async () => {
  await receiver.stop();
  await t?.close();
});

test("a receiver orders a payment's events by sequence and ends at its final status", async () => {
  const owner = await api.signUp("merchant");
  const app = await api.expect(201, "POST", "/apps", owner.token, {
    name: "Ordered shop",
    app_fee: 0,
    use_explorer: false,
  });
  const endpoint = await api.expect(201, "POST", `/webhooks/${app.id}`, owner.token, {
    url: receiver.url,
    events: ["payment.*"],
  });
  receiver.secret = endpoint.secret;
  const price = await api.expect(201, "POST", `/prices/${app.id}`, owner.token, {
    name: "Ticket",
    amount: 20,
    currency: "usd",
  });
  const payment = await api.expect(201, "POST", `/payments/${app.id}`, owner.token, {
    price_id: price.id,
    payment_provider: "card",
  });
  await api.expect(200, "POST", `/payments/${app.id}/${payment.id}/confirm`, owner.token, {
    payment_method: { type: "card", number: "4242424242424242", exp_month: 12, exp_year: 2030, cvc: "123" },
  });

  // Every event of the payment in, the retried hold included (backoff: a few seconds).
  const mine = await eventually(() => {
    const events = receiver.arrived.filter((e) => e.data.id === payment.id);
    return events.length >= 3 ? events : undefined;
  }, 60_000);
  assert.equal(receiver.rejected, 0, "every delivery verified");
  // The hold arrives after `paid`: retried after the receiver refused it, or late by itself when
  // the machine is busy; either way out of order, which is what the sequence is for.
  const arrival = mine.map((e) => e.data.status);
  assert.ok(arrival.indexOf("hold") > arrival.indexOf("paid"), `out of order: ${arrival.join(", ")}`);

  const ordered = [...mine].sort((a, b) => a.data.sequence - b.data.sequence);
  assert.deepEqual(
    ordered.map((e) => [e.data.sequence, e.type, e.data.previous_status, e.data.status]),
    [
      [1, "payment.pending", null, "pending"],
      [2, "payment.hold", "pending", "hold"],
      [3, "payment.paid", "hold", "paid"],
    ],
  );
  const current = await api.expect(200, "GET", `/payments/${app.id}/${payment.id}`, owner.token);
  assert.equal(current.status, "paid");
  assert.deepEqual(receiver.latest.get(payment.id), { status: "paid", sequence: 3 });
});
