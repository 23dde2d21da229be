// The SDK's KYC list walks the interface's envelope (`{data: [...]}`): one page, `for await` across
// pages, and `toArray`, each answering the records themselves.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { Client, type Kyc } from "@payments-backend/sdk";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp } from "../helpers/browser.ts";

let t: TestApp;
let base: string;
let server: Client;
let appId: string;
const created: string[] = [];

before(async () => {
  ({ t, base } = await buildServedApp());
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
