// Changing and deleting triggers (docs/triggers.md, "Saving a trigger"): a PATCH re-checks the
// merged trigger; a wallet or a price a trigger is linked to keeps it from being deleted (409), and
// a trigger saved while its wallet is deleted never leaves both; a payment's trigger parameters are
// checked by rendering the call; deleting the app removes its wallets and triggers. Creating and
// reading, and the checks every route makes: create.test.ts.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Tenants } from "../helpers/fixture.ts";
import { assertProblem, expectStatus } from "../helpers/http.ts";
import { createPrice } from "../helpers/prices.ts";
import { evmTrigger, nearTrigger } from "../helpers/triggers.ts";
import { createWallet, type WalletTestApp } from "../helpers/wallets.ts";
import { useTriggerApp } from "./trigger-fixtures.ts";

let w: WalletTestApp;
let f: Tenants;
let evmWallet: any;
let nearWallet: any;
const { post, created, firstPath } = useTriggerApp((fixture) => {
  ({ w, f, evmWallet, nearWallet } = fixture);
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
