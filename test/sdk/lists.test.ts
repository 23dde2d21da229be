// The SDK's KYC list walks the interface's envelope (`{data: [...]}`): one page, `for await` across
// pages, and `toArray`, each answering the records themselves. A payment's timeline is a list too,
// and a webhook endpoint takes a test event.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Client, type Kyc } from "../../sdk/src/index.ts";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp } from "../helpers/browser.ts";

let t: TestApp;
let base: string;
let server: Client;
let appId: string;
const created: string[] = [];

before(async () => {
  ({ t, base } = await buildServedApp({ WEBHOOKS_ALLOW_LOOPBACK: "true" }));
  const owner = new Client({ baseUrl: base });
  const name = `kyc${Date.now().toString(36)}`;
  await owner.auth.signUp({
    email: `${name}@example.com`,
    password: "correct horse battery staple",
    username: name,
    first_name: "Sdk",
    last_name: "Example",
  });
  appId = (await owner.apps.create({ name: "Marketplace", app_fee: 0, use_explorer: false })).id;
  server = new Client({ baseUrl: base, apiKey: (await owner.apiKeys.create(appId, { name: "server" })).key });
  for (const identifier of ["seller-a", "seller-b", "seller-c"]) {
    created.push((await server.kyc.create(appId, { identifier })).data.id);
  }
});
after(() => t?.close());

test("a page of KYC records answers the records, with the list's total", async () => {
  const page = await server.kyc.list(appId, { limit: 2 }).page();
  assert.equal(page.data.length, 2);
  const first: Kyc = page.data[0];
  assert.equal(first.id, created[2], "newest first");
  assert.equal(first.identifier, "seller-c");
  assert.equal(page.total, 3);
  assert.equal(page.hasMore, true);
});

test("for await and toArray walk every page by cursor", async () => {
  const walked: string[] = [];
  for await (const kyc of server.kyc.list(appId, { limit: 1 })) walked.push(kyc.id);
  assert.deepEqual(walked, [...created].reverse());
  const all = await server.kyc.list(appId, { limit: 2 }).toArray();
  assert.deepEqual(
    all.map((kyc) => kyc.identifier),
    ["seller-c", "seller-b", "seller-a"],
  );
});

test("payments.events walks a paid payment's timeline; webhooks.sendTest answers the pending delivery", async () => {
  const priceId = (await server.prices.create(appId, { name: "Ticket", amount: 20, currency: "usd" })).id;
  const payment = await server.payments.create(appId, { price_id: priceId, payment_provider: "card" });
  const card = {
    type: "card" as const,
    number: "4242424242424242",
    exp_month: 12,
    exp_year: 2030,
    cvc: "123",
  };
  await server.payments.confirm(appId, payment.id, { payment_method: card });
  let moves: string[] = [];
  for (let i = 0; i < 200 && moves.at(-1) !== "paid"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    moves = (await server.payments.events(appId, payment.id).toArray()).map((event) => event.to_status);
  }
  assert.deepEqual(moves, ["pending", "hold", "paid"]);

  // Port 9 (discard) on loopback: the delivery is queued whatever becomes of it.
  const endpoint = await server.webhooks.create(appId, {
    url: "http://127.0.0.1:9/hook",
    events: ["kyc.updated"],
  });
  const delivery = await server.webhooks.sendTest(appId, endpoint.id);
  assert.equal(delivery.event.type, "webhook.test");
  assert.equal(delivery.status, "pending");
  const [logged] = await server.webhooks.listDeliveries(appId, endpoint.id).toArray();
  assert.equal(logged.id, delivery.id);
});
