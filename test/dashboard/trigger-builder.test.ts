import assert from "node:assert/strict";
import { test } from "node:test";
import { fromCallData, toCallData } from "../../dashboard/src/pages/triggers/call-data.ts";
import { fromParamsData, toParamsData } from "../../dashboard/src/pages/triggers/descriptors.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { evmTrigger, nearTrigger, solanaTrigger, waxTrigger } from "../helpers/triggers.ts";

// The trigger builder's mapping, through the real API for every chain: a trigger the service
// stored, read into the builder's fields and written back as the builder sends it, is stored the
// same and renders the same call. (The browser test drives the builder's fields for EVM.)

const fx = useTestApp();

const SAMPLES = [
  [
    "evm",
    { type: "evm" },
    evmTrigger,
    { receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", quantity: 3 },
  ],
  ["near", { type: "near" }, nearTrigger, { receiver: "buyer.testnet", seat: 7 }],
  [
    "wax",
    { type: "wax", wallet_data: { wax: { account: "shop.wam" } } },
    waxTrigger,
    {
      to: "buyer.wam",
      quantity: "1.00000000 WAX",
      order: "A1",
    },
  ],
  [
    "solana",
    { type: "solana" },
    solanaTrigger,
    {
      amount: 5,
      source: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
      destination: "11111111111111111111111111111111",
    },
  ],
] as const;

for (const [chain, walletBody, sample, input] of SAMPLES) {
  test(`${chain}: a trigger read into the builder and saved from it is the same trigger`, async () => {
    const token = fx.tenants.owner.token;
    const wallet = expectStatus(
      await call(fx.app, "POST", `/wallets/${fx.tenants.app.id}`, {
        token,
        body: { name: `${chain} wallet`, ...walletBody },
      }),
      201,
    );
    const stored = expectStatus(
      await call(fx.app, "POST", `/triggers/${fx.tenants.app.id}`, { token, body: sample(wallet.id) }),
      201,
    );
    const body = {
      name: `${stored.name} (from the builder)`,
      wallet_id: wallet.id,
      call_data: toCallData(chain, fromCallData(stored)),
      params_data: toParamsData(fromParamsData(stored.params_data)),
    };
    const rebuilt = expectStatus(
      await call(fx.app, "POST", `/triggers/${fx.tenants.app.id}`, { token, body }),
      201,
    );
    assert.deepEqual(rebuilt.call_data, stored.call_data);
    assert.deepEqual(
      fromParamsData(rebuilt.params_data).map(({ key: _, ...row }) => row),
      fromParamsData(stored.params_data).map(({ key: _, ...row }) => row),
    );

    const render = async (id: string) =>
      expectStatus(
        await call(fx.app, "POST", `/triggers/${fx.tenants.app.id}/${id}/render`, {
          token,
          body: { params_data_input: input },
        }),
        200,
      );
    assert.deepEqual(await render(rebuilt.id), await render(stored.id));
  });
}
