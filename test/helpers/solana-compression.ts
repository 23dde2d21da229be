import type { TestApp } from "./app.ts";
import { call, expectStatus, tenantFixture } from "./http.ts";

/** A tenant fixture plus a Solana and an EVM wallet in the owner's app and a Solana wallet in the outsider's. */
export async function solanaFixture(t: TestApp) {
  const tenant = await tenantFixture(t);
  const wallet = async (token: string, appId: string, type: string) =>
    expectStatus(
      await call(t, "POST", `/wallets/${appId}`, { token, body: { name: `${type} wallet`, type } }),
      201,
    ).id as string;
  return {
    ...tenant,
    solanaWallet: await wallet(tenant.owner.token, tenant.app.id, "solana"),
    evmWallet: await wallet(tenant.owner.token, tenant.app.id, "evm"),
    otherSolanaWallet: await wallet(tenant.outsider.token, tenant.otherApp.id, "solana"),
  };
}

export const compressionUrl = (appId: string, walletId: string, what: "trees" | "collections") =>
  `/solana/compression/${appId}/${walletId}/${what}`;
