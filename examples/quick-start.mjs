// The README's quick start, runnable as written (Node 18+) against a running service:
//   WEBHOOKS_ALLOW_LOOPBACK=true npm start      # in one terminal (loopback webhooks: local only)
//   node examples/quick-start.mjs               # in another (BASE_URL defaults to :3000)
// In this repository run `npm run sdk:build` once first; in your own project
// `npm install @payments-backend/sdk`. test/sdk/quick-start.test.ts runs it on Node 20 and 24.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { Client, verifyWebhook } from "@payments-backend/sdk";

const baseUrl = process.env.BASE_URL ?? "http://127.0.0.1:3000";

// 1. Sign up: the client uses the new session from now on.
const you = new Client({ baseUrl });
const name = `dev${randomUUID().slice(0, 8)}`;
await you.auth.signUp({
  email: `${name}@example.com`,
  password: "correct horse battery staple",
  username: name,
  first_name: "Dev",
  last_name: "Example",
});

// 2. An app, and an API key for your server to act as it (the key is shown this once).
const app = await you.apps.create({ name: "My shop", app_fee: 0, use_explorer: false });
const { key } = await you.apiKeys.create(app.id, { name: "server" });
const server = new Client({ baseUrl, apiKey: key });

// 3. A webhook endpoint, and a receiver that verifies every delivery before trusting it.
let secret = "";
let onPaid = () => {};
const paid = new Promise((resolve) => {
  onPaid = resolve;
});
const receiver = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => {
    body += chunk;
  });
  request.on("end", () => {
    try {
      const event = verifyWebhook(body, request.headers, secret);
      response.writeHead(204).end();
      if (event.type === "payment.paid") onPaid(event);
    } catch {
      response.writeHead(400).end(); // not signed with our secret: ignored
    }
  });
});
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${receiver.address().port}/hooks`;
const endpoint = await server.webhooks.create(app.id, { url, events: ["payment.*"] });
secret = endpoint.secret ?? ""; // answered this once, at creation

// 4. A price, and a payment of it. The Idempotency-Key makes a retried create (yours or the
//    client's own, after a network failure) answer the same payment instead of a second one.
const price = await server.prices.create(app.id, { name: "Ticket", amount: 20, currency: "usd" });
const payment = await server.payments.create(
  app.id,
  { price_id: price.id, payment_provider: "card" },
  { idempotencyKey: `order-${randomUUID()}` },
);

// 5. Confirm with the sandbox's test card; the provider call runs in a job.
await server.payments.confirm(app.id, payment.id, {
  payment_method: { type: "card", number: "4242424242424242", exp_month: 12, exp_year: 2030, cvc: "123" },
});
const event = await paid;
receiver.close();
console.log(`${event.type}: ${event.data.id}`);

// 6. Every payment of the app, page after page.
for await (const each of server.payments.list(app.id)) console.log(each.id, each.status);
