import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { checkRouteBasics } from "../helpers/contract.ts";
import { assertProblem, expectStatus, tenantFixture } from "../helpers/http.ts";
import { createPrice } from "../helpers/prices.ts";
import { evmTrigger, nearTrigger, waxTrigger } from "../helpers/triggers.ts";
import { buildWalletTestApp, createWallet, type WalletTestApp } from "../helpers/wallets.ts";

let w: WalletTestApp;
let f: Awaited<ReturnType<typeof tenantFixture>>;
let evmWallet: any;
let nearWallet: any;
let foreignWallet: any;

before(async () => {
  w = await buildWalletTestApp();
  f = await tenantFixture(w.t);
  evmWallet = await createWallet(w, f.owner.token, f.app.id, { type: "evm" });
  nearWallet = await createWallet(w, f.owner.token, f.app.id, { type: "near" });
  foreignWallet = await createWallet(w, f.outsider.token, f.otherApp.id, { type: "evm" });
  for (const x of [evmWallet, nearWallet, foreignWallet]) await w.remember(x.id);
});
after(async () => {
  w.assertNoLeak();
  await w.t.close();
});

const post = (body: unknown, token = f.owner.token) =>
  w.call("POST", `/triggers/${f.app.id}`, { token, body });
const created = async (body: unknown) => expectStatus(await post(body), 201);
const firstPath = (answer: any) => assertProblem(answer, 400, "validation_failed").errors[0].path;

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

describe("update and delete", () => {
  it("PATCH renames and re-checks the merged trigger", async () => {
    const trigger = await created(evmTrigger(evmWallet.id));
    const renamed = expectStatus(
      await w.call("PATCH", `/triggers/${f.app.id}/${trigger.id}`, {
        token: f.developer.token,
        body: { name: "New" },
      }),
      200,
    );
    assert.equal(renamed.name, "New");
    assert.deepEqual(renamed.call_data, trigger.call_data);
    const written = expectStatus(
      await w.call("PATCH", `/triggers/${f.app.id}/${trigger.id}`, {
        token: f.owner.token,
        body: { params_data_example: "see the docs" },
      }),
      200,
    );
    assert.equal(written.params_data_example, "see the docs");
    const kept = expectStatus(
      await w.call("PATCH", `/triggers/${f.app.id}/${trigger.id}`, {
        token: f.owner.token,
        body: { name: "Newer" },
      }),
      200,
    );
    assert.equal(kept.params_data_example, "see the docs", "a written example survives a rename");
    const params = expectStatus(
      await w.call("PATCH", `/triggers/${f.app.id}/${trigger.id}`, {
        token: f.owner.token,
        body: { params_data: { ...evmTrigger("").params_data, boolean: [{ name: "gift", optional: true }] } },
      }),
      200,
    );
    assert.equal(params.params_data.boolean[0].name, "gift");
    // Dropping a parameter the call still uses is refused.
    const dropped = await w.call("PATCH", `/triggers/${f.app.id}/${trigger.id}`, {
      token: f.owner.token,
      body: { params_data: { number: [{ name: "quantity" }] } },
    });
    assert.equal(firstPath(dropped), "/body/call_data/evm/data");
    // Moving to a wallet of another chain needs that chain's call.
    const moved = await w.call("PATCH", `/triggers/${f.app.id}/${trigger.id}`, {
      token: f.owner.token,
      body: { wallet_id: nearWallet.id },
    });
    assert.equal(firstPath(moved), "/body/call_data");
    const near = nearTrigger(nearWallet.id);
    const switched = expectStatus(
      await w.call("PATCH", `/triggers/${f.app.id}/${trigger.id}`, {
        token: f.owner.token,
        body: { wallet_id: nearWallet.id, call_data: near.call_data, params_data: near.params_data },
      }),
      200,
    );
    assert.equal(switched.wallet.id, nearWallet.id);
    assert.equal(switched.call_data.evm, null);
    assert.equal(switched.call_data.near.method_name, "nft_mint");
  });

  it("a wallet used by a trigger cannot be deleted (409) until the trigger is gone", async () => {
    const wallet = await createWallet(w, f.owner.token, f.app.id, { type: "evm" });
    await w.remember(wallet.id);
    const trigger = await created(evmTrigger(wallet.id));
    assertProblem(
      await w.call("DELETE", `/wallets/${f.app.id}/${wallet.id}`, { token: f.owner.token }),
      409,
      "conflict",
    );
    const del = await w.call("DELETE", `/triggers/${f.app.id}/${trigger.id}`, { token: f.developer.token });
    assert.equal(del.status, 204);
    assertProblem(
      await w.call("GET", `/triggers/${f.app.id}/${trigger.id}`, { token: f.owner.token }),
      404,
      "not_found",
    );
    assertProblem(
      await w.call("DELETE", `/triggers/${f.app.id}/${trigger.id}`, { token: f.owner.token }),
      404,
      "not_found",
    );
    assert.equal(
      (await w.call("DELETE", `/wallets/${f.app.id}/${wallet.id}`, { token: f.owner.token })).status,
      204,
    );
  });

  it("a trigger saved while its wallet is deleted: one of the two wins, never both, never a 500", async () => {
    for (let round = 0; round < 6; round++) {
      const wallet = await createWallet(w, f.owner.token, f.app.id, { type: "evm" });
      await w.remember(wallet.id);
      const [created, deleted] = await Promise.all([
        post(evmTrigger(wallet.id)),
        w.call("DELETE", `/wallets/${f.app.id}/${wallet.id}`, { token: f.owner.token }),
      ]);
      const outcome = `${created.status}/${deleted.status}`;
      assert.ok(["201/409", "400/204"].includes(outcome), `round ${round}: ${outcome}`);
      const read = await w.call("GET", `/wallets/${f.app.id}/${wallet.id}`, { token: f.owner.token });
      assert.equal(read.status, created.status === 201 ? 200 : 404);
      if (created.status === 201) {
        await w.call("DELETE", `/triggers/${f.app.id}/${created.body.id}`, { token: f.owner.token });
      }
    }
  });

  it("prices link only to their app's triggers; a trigger a price uses cannot be deleted (409)", async () => {
    const trigger = await created(evmTrigger(evmWallet.id));
    const foreign = await w.call("POST", `/prices/${f.otherApp.id}`, {
      token: f.outsider.token,
      body: { name: "Stolen", amount: 1, currency: "usd", trigger_id: trigger.id },
    });
    assert.equal(firstPath(foreign), "/body/trigger_id");
    const price = await createPrice(w.t, f.owner.token, f.app.id, { trigger_id: trigger.id });
    const one = `/triggers/${f.app.id}/${trigger.id}`;
    assertProblem(await w.call("DELETE", one, { token: f.owner.token }), 409, "conflict");
    expectStatus(
      await w.call("PATCH", `/prices/${f.app.id}/${price.id}`, {
        token: f.owner.token,
        body: { trigger_id: null },
      }),
      200,
    );
    assert.equal((await w.call("DELETE", one, { token: f.owner.token })).status, 204);
  });

  it("a payment's trigger parameters are checked by rendering the trigger's call", async () => {
    const trigger = await created(evmTrigger(evmWallet.id));
    const price = await createPrice(w.t, f.owner.token, f.app.id, { trigger_id: trigger.id });
    const pay = (params_data_input: unknown) =>
      w.call("POST", `/payments/${f.app.id}`, {
        token: f.owner.token,
        body: { price_id: price.id, payment_provider: "card", trigger_data_input: { params_data_input } },
      });
    const refused = await pay({ receiver: "0x123", quantity: 1 });
    assert.equal(firstPath(refused), "/body/trigger_data_input/params_data_input/receiver");
    const missing = assertProblem(await pay({}), 400, "validation_failed");
    assert.deepEqual(missing.errors.map((e: any) => e.path).sort(), [
      "/body/trigger_data_input/params_data_input/quantity",
      "/body/trigger_data_input/params_data_input/receiver",
    ]);
    const accepted = expectStatus(
      await pay({ receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", quantity: 2 }),
      201,
    );
    assert.deepEqual(accepted.trigger_data_input.params_data_input, {
      receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      quantity: 2,
    });
  });

  it("deleting the app removes its wallets and triggers", async () => {
    const app = expectStatus(
      await w.call("POST", "/apps", { token: f.owner.token, body: { name: "Temp" } }),
      201,
    );
    const wallet = await createWallet(w, f.owner.token, app.id, { type: "evm" });
    await w.remember(wallet.id);
    expectStatus(
      await w.call("POST", `/triggers/${app.id}`, { token: f.owner.token, body: evmTrigger(wallet.id) }),
      201,
    );
    assert.equal((await w.call("DELETE", `/apps/${app.id}`, { token: f.owner.token })).status, 204);
    assertProblem(
      await w.call("GET", `/wallets/${app.id}/${wallet.id}`, { token: f.owner.token }),
      404,
      "not_found",
    );
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
