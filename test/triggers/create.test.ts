// Creating triggers and reading them back (docs/triggers.md, "Saving a trigger"): the interface's
// Trigger shape, lists, what a trigger must satisfy to be saved, the requests every trigger route
// refuses (unknown fields, malformed JSON, bad paging, no credential, another tenant), and the
// routes' entries in the OpenAPI document. Changes and deletion: update-delete.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkRouteBasics } from "../helpers/contract.ts";
import type { Tenants } from "../helpers/fixture.ts";
import { assertProblem, expectStatus } from "../helpers/http.ts";
import { evmTrigger, nearTrigger, waxTrigger } from "../helpers/triggers.ts";
import { createWallet, type WalletTestApp } from "../helpers/wallets.ts";
import { useTriggerApp } from "./trigger-fixtures.ts";

let w: WalletTestApp;
let f: Tenants;
let evmWallet: any;
let nearWallet: any;
let foreignWallet: any;
const { post, created, firstPath } = useTriggerApp((fixture) => {
  ({ w, f, evmWallet, nearWallet, foreignWallet } = fixture);
});

describe("create and read", () => {
  it("answers the interface's Trigger shape, the wallet with secrets null", async () => {
    const trigger = await created(evmTrigger(evmWallet.id));
    assert.deepEqual(Object.keys(trigger).sort(), [
      "app",
      "call_data",
      "created_at",
      "custom_address",
      "custom_address_enabled",
      "id",
      "name",
      "params_data",
      "params_data_example",
      "params_data_input",
      "updated_at",
      "wallet",
    ]);
    assert.deepEqual(Object.keys(trigger.call_data).sort(), ["evm", "near", "solana", "wax"]);
    assert.equal(trigger.call_data.near, null);
    assert.deepEqual(Object.keys(trigger.call_data.evm).sort(), [
      "abi",
      "contract_id",
      "data",
      "data_input",
      "gas_limit",
      "method_name",
      "method_type",
      "template",
    ]);
    assert.equal(trigger.call_data.evm.contract_id, "0x5FbDB2315678afecb367f032d93F642f64180aa3");
    assert.equal(trigger.call_data.evm.method_type, "nonpayable");
    assert.equal(trigger.wallet.id, evmWallet.id);
    assert.equal(trigger.wallet.wallet_data.evm.private_key, null);
    assert.equal(trigger.app.id, f.app.id);
    assert.equal(trigger.custom_address_enabled, false);
    // No example given: one is generated from the descriptors.
    assert.deepEqual(JSON.parse(trigger.params_data_example), {
      receiver: "0x0000000000000000000000000000000000000001",
      order_id: "order_id",
      quantity: 1,
    });
    const read = expectStatus(
      await w.call("GET", `/triggers/${f.app.id}/${trigger.id}`, { token: f.developer.token }),
      200,
    );
    assert.deepEqual({ ...read, app: null, wallet: null }, { ...trigger, app: null, wallet: null });
  });

  it("keeps a given example input after rendering it, and a custom address", async () => {
    const body = {
      ...evmTrigger(evmWallet.id),
      params_data_input: { receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", quantity: 5 },
      custom_address_enabled: true,
      custom_address: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
    };
    const trigger = await created(body);
    assert.deepEqual(trigger.params_data_input, body.params_data_input);
    assert.equal(trigger.custom_address, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
    const bad = await post({ ...body, params_data_input: { receiver: "nope", quantity: 5 } });
    assert.equal(firstPath(bad), "/body/params_data_input/receiver");
  });

  it("lists newest first with paging headers", async () => {
    const a = await created({ ...nearTrigger(nearWallet.id), name: "A" });
    const b = await created({ ...waxTriggerFor(await waxWallet()), name: "B" });
    const answer = await w.call("GET", `/triggers/${f.app.id}?limit=2`, { token: f.developer.token });
    const items = expectStatus(answer, 200);
    assert.deepEqual(
      items.map((t: any) => t.id),
      [b.id, a.id],
    );
    assert.ok(Number(answer.headers["x-total-count"]) >= 3);
    assert.match(String(answer.headers.link), /rel="next"/);
  });
});

async function waxWallet() {
  const wallet = await createWallet(w, f.owner.token, f.app.id, {
    type: "wax",
    wallet_data: { wax: { account: "trig.wam" } },
  });
  await w.remember(wallet.id);
  return wallet;
}
const waxTriggerFor = (wallet: any) => waxTrigger(wallet.id);

describe("what a trigger must satisfy", () => {
  it("the wallet belongs to the app and its chain matches call_data", async () => {
    assert.equal(firstPath(await post(evmTrigger(foreignWallet.id))), "/body/wallet_id");
    assert.equal(firstPath(await post(evmTrigger("wal_nope"))), "/body/wallet_id");
    const mismatch = { ...nearTrigger(nearWallet.id), call_data: evmTrigger(evmWallet.id).call_data };
    assert.equal(firstPath(await post(mismatch)), "/body/call_data/evm");
    const both = {
      ...evmTrigger(evmWallet.id),
      call_data: { ...evmTrigger(evmWallet.id).call_data, near: nearTrigger(nearWallet.id).call_data.near },
    };
    assert.equal(firstPath(await post(both)), "/body/call_data/near");
  });

  it("descriptors are checked when saved, each problem named", async () => {
    const base = evmTrigger(evmWallet.id);
    const cases: [unknown, string][] = [
      [{ ...base.params_data, date: [] }, "/body/params_data/date"],
      [
        { ...base.params_data, number: [{ name: "quantity", optional: "yes" }] },
        "/body/params_data/number/0/optional",
      ],
      [
        { ...base.params_data, number: [{ name: "quantity", is_near_address: true }] },
        "/body/params_data/number/0/is_near_address",
      ],
      [{ ...base.params_data, number: [{ name: "9lives" }] }, "/body/params_data/number/0/name"],
      [{ ...base.params_data, number: [{ name: "receiver" }] }, "/body/params_data"],
      [
        { ...base.params_data, boolean: [{ name: "wallet" }], number: [{ name: "quantity" }] },
        "/body/params_data",
      ],
      [
        { ...base.params_data, object: [{ name: "o", value: [{ nope: {} }] }] },
        "/body/params_data/object/0/value/0",
      ],
      [{ ...base.params_data, number: "quantity" }, "/body/params_data/number"],
      [{ ...base.params_data, number: {} }, "/body/params_data/number/name"],
    ];
    for (const [params_data, path] of cases) {
      assert.equal(firstPath(await post({ ...base, params_data })), path, JSON.stringify(params_data));
    }
  });

  it("the call is checked per chain: address, ABI, method, placeholders, gas", async () => {
    const base = evmTrigger(evmWallet.id);
    const evm = (patch: Record<string, unknown>) => ({
      ...base,
      call_data: { evm: { ...base.call_data.evm, ...patch } },
    });
    assert.equal(
      firstPath(await post(evm({ contract_id: `0x${"g".repeat(40)}` }))),
      "/body/call_data/evm/contract_id",
    );
    assert.equal(firstPath(await post(evm({ method_name: "burn" }))), "/body/call_data/evm/method_name");
    assert.equal(firstPath(await post(evm({ abi: "{not json" }))), "/body/call_data/evm/abi");
    assert.equal(
      firstPath(await post(evm({ data_input: { to: "{{who}}" } }))),
      "/body/call_data/evm/data_input",
    );
    assert.equal(firstPath(await post(evm({ template: "[1," }))), "/body/call_data/evm/template");
    assert.equal(firstPath(await post(evm({ extra: 1 }))), "/body/call_data/evm/extra");
    const near = nearTrigger(nearWallet.id);
    const nearWith = (patch: Record<string, unknown>) => ({
      ...near,
      call_data: { near: { ...near.call_data.near, ...patch } },
    });
    assert.equal(
      firstPath(await post(nearWith({ gas_amount: "300000000000001" }))),
      "/body/call_data/near/gas_amount",
    );
    assert.equal(
      firstPath(await post(nearWith({ contract_id: "Not.Valid" }))),
      "/body/call_data/near/contract_id",
    );
    assert.equal(
      firstPath(await post(nearWith({ attached_deposit_amount: "1.5" }))),
      "/body/call_data/near/attached_deposit_amount",
    );
    const wax = waxTrigger(evmWallet.id);
    assert.equal(firstPath(await post({ ...base, call_data: wax.call_data })), "/body/call_data/wax");
    const enabled = { ...base, custom_address_enabled: true };
    assert.equal(firstPath(await post(enabled)), "/body/custom_address");
    assert.equal(firstPath(await post({ ...enabled, custom_address: "bob.near" })), "/body/custom_address");
  });
});

describe("request validation and security", () => {
  it("unknown fields, malformed JSON, bad page parameters are 400", async () => {
    assert.equal(firstPath(await post({ ...evmTrigger(evmWallet.id), colour: "red" })), "/body/colour");
    assertProblem(
      await w.call("POST", `/triggers/${f.app.id}`, { token: f.owner.token, raw: "{" }),
      400,
      "validation_failed",
    );
    assert.equal(firstPath(await post({ name: "x", wallet_id: evmWallet.id })), "/body/call_data");
    for (const query of ["page=0", "limit=101", "page=x", "limit=-1"]) {
      assertProblem(
        await w.call("GET", `/triggers/${f.app.id}?${query}`, { token: f.owner.token }),
        400,
        "validation_failed",
      );
    }
  });

  it("every route passes the API's contract checks (401s, malformed JSON, unknown fields, paging)", async () => {
    const trigger = await created(evmTrigger(evmWallet.id));
    const token = f.owner.token;
    const one = `/triggers/${f.app.id}/${trigger.id}`;
    await checkRouteBasics(w.t, { method: "GET", url: `/triggers/${f.app.id}`, token, list: true });
    await checkRouteBasics(w.t, {
      method: "POST",
      url: `/triggers/${f.app.id}`,
      token,
      body: evmTrigger(evmWallet.id),
    });
    await checkRouteBasics(w.t, { method: "GET", url: one, token });
    await checkRouteBasics(w.t, { method: "PATCH", url: one, token, body: { name: "T" } });
    await checkRouteBasics(w.t, {
      method: "POST",
      url: `${one}/render`,
      token,
      body: { params_data_input: { receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", quantity: 1 } },
    });
    await checkRouteBasics(w.t, { method: "DELETE", url: one, token });
  });

  it("every route wants a credential; another tenant gets 404 and changes nothing", async () => {
    const trigger = await created(evmTrigger(evmWallet.id));
    const one = `/triggers/${f.app.id}/${trigger.id}`;
    const routes: [string, string, unknown?][] = [
      ["GET", `/triggers/${f.app.id}`],
      ["POST", `/triggers/${f.app.id}`, evmTrigger(evmWallet.id)],
      ["GET", one],
      ["PATCH", one, { name: "X" }],
      ["DELETE", one],
      ["POST", `${one}/render`, { params_data_input: {} }],
    ];
    for (const [method, url, body] of routes) {
      assertProblem(await w.call(method, url, { body }), 401, "unauthenticated");
      assertProblem(await w.call(method, url, { body, token: f.outsider.token }), 404, "not_found");
    }
    // The outsider's own app cannot reach it either, nor use the owner's wallet.
    assertProblem(
      await w.call("GET", `/triggers/${f.otherApp.id}/${trigger.id}`, { token: f.outsider.token }),
      404,
      "not_found",
    );
    const stolen = await w.call("POST", `/triggers/${f.otherApp.id}`, {
      token: f.outsider.token,
      body: evmTrigger(evmWallet.id),
    });
    assert.equal(firstPath(stolen), "/body/wallet_id");
    const read = expectStatus(await w.call("GET", one, { token: f.owner.token }), 200);
    assert.equal(read.name, trigger.name);
  });
});

describe("documentation", () => {
  it("the OpenAPI document lists the wallet and trigger routes", async () => {
    const doc = expectStatus(await w.call("GET", "/openapi.json"), 200);
    for (const path of [
      "/wallets/{app_id}",
      "/wallets/{app_id}/{wallet_id}",
      "/triggers/{app_id}",
      "/triggers/{app_id}/{trigger_id}",
      "/triggers/{app_id}/{trigger_id}/render",
    ]) {
      assert.ok(doc.paths[path], `${path} is documented`);
    }
  });
});
