import type { Chain } from "../../platform/chains/adapter.ts";
import { invalid } from "../../platform/http/errors.ts";
import type { KeyMaterial } from "./keys/types.ts";

// Each chain's key code, and its SDK, is loaded when a wallet of that chain is first made or
// changed: most processes never make one, and the SDKs are most of a process's module loading
// (docs/benchmarks.md, "Chain SDKs loaded when first used").
const keysOf = {
  evm: () => import("./keys/evm.ts"),
  near: () => import("./keys/near.ts"),
  solana: () => import("./keys/solana.ts"),
  wax: () => import("./keys/wax.ts"),
};

interface Network {
  network_id?: string;
  test_network?: boolean;
}
export interface WalletDataInput {
  near?: Network & { account_id?: string; phrase_or_key?: string };
  evm?: Network & { private_key?: string };
  wax?: Network & { account?: string; permission?: string; public_key?: string; private_key?: string };
  solana?: Network & { private_key?: string };
}

export interface NewKey extends KeyMaterial {
  managed: boolean;
  permission: string | null;
}

/** Only the wallet's own chain may carry data: anything else is a mistake worth a 400. */
function rejectOtherChains(type: Chain, data: WalletDataInput | undefined, path: string) {
  for (const chain of Object.keys(data ?? {})) {
    if (chain !== type) throw invalid(`${path}/${chain}`, `does not apply to a ${type} wallet`);
  }
}

/** The key of a new wallet: generated when no key material is given, otherwise imported and checked. */
export async function keyForNewWallet(type: Chain, data: WalletDataInput | undefined): Promise<NewKey> {
  rejectOtherChains(type, data, "/body/wallet_data");
  const path = `/body/wallet_data/${type}`;
  const generated = (key: KeyMaterial): NewKey => ({ ...key, managed: true, permission: null });
  const imported = (key: KeyMaterial): NewKey => ({ ...key, managed: false, permission: null });
  switch (type) {
    case "evm": {
      const { generateEvmKey, importEvmKey } = await keysOf.evm();
      const key = data?.evm?.private_key;
      return key ? imported(importEvmKey(key, `${path}/private_key`)) : generated(generateEvmKey());
    }
    case "solana": {
      const { generateSolanaKey, importSolanaKey } = await keysOf.solana();
      const key = data?.solana?.private_key;
      return key
        ? imported(await importSolanaKey(key, `${path}/private_key`))
        : generated(await generateSolanaKey());
    }
    case "near": {
      const { generateNearKey, importNearKey } = await keysOf.near();
      const near = data?.near;
      if (near?.phrase_or_key) {
        return imported(
          importNearKey({ account_id: near.account_id, phrase_or_key: near.phrase_or_key }, path),
        );
      }
      if (near?.account_id !== undefined) {
        throw invalid(
          `${path}/phrase_or_key`,
          "is required with account_id: a named account's key cannot be generated",
        );
      }
      return generated(generateNearKey());
    }
    case "wax": {
      const { checkWaxAccount, generateWaxKey, importWaxKey } = await keysOf.wax();
      const wax = data?.wax;
      if (!wax?.account) throw invalid(`${path}/account`, "is required: WAX accounts exist only on chain");
      const account = checkWaxAccount(wax.account, `${path}/account`);
      const permission = wax.permission ? checkWaxAccount(wax.permission, `${path}/permission`) : "active";
      if (wax.private_key) {
        const key = importWaxKey({ account, private_key: wax.private_key, public_key: wax.public_key }, path);
        return { ...key, managed: false, permission };
      }
      if (wax.public_key !== undefined) throw invalid(`${path}/private_key`, "is required with public_key");
      return { ...generateWaxKey(account), managed: true, permission };
    }
  }
}

export interface StoredKey {
  type: Chain;
  accountId: string;
  publicKey: string | null;
}

/** What a PATCH changes: the account, and a new imported key when key material was given. */
export interface KeyChange {
  accountId: string;
  publicKey: string | null;
  secret?: string;
}

export async function keyChange(wallet: StoredKey, data: WalletDataInput | undefined): Promise<KeyChange> {
  rejectOtherChains(wallet.type, data, "/body/wallet_data");
  const path = `/body/wallet_data/${wallet.type}`;
  const unchanged: KeyChange = { accountId: wallet.accountId, publicKey: wallet.publicKey };
  switch (wallet.type) {
    case "evm": {
      if (!data?.evm?.private_key) return unchanged;
      const { importEvmKey } = await keysOf.evm();
      return importEvmKey(data.evm.private_key, `${path}/private_key`);
    }
    case "solana": {
      if (!data?.solana?.private_key) return unchanged;
      const { importSolanaKey } = await keysOf.solana();
      return await importSolanaKey(data.solana.private_key, `${path}/private_key`);
    }
    case "near": {
      const { checkNearAccount, importNearKey } = await keysOf.near();
      const near = data?.near;
      if (near?.phrase_or_key)
        return importNearKey({ account_id: near.account_id, phrase_or_key: near.phrase_or_key }, path);
      if (near?.account_id === undefined) return unchanged;
      return {
        ...unchanged,
        accountId: checkNearAccount(near.account_id, wallet.publicKey!, `${path}/account_id`),
      };
    }
    case "wax": {
      const { checkSamePublicKey, checkWaxAccount, importWaxKey } = await keysOf.wax();
      const wax = data?.wax;
      const account =
        wax?.account === undefined ? wallet.accountId : checkWaxAccount(wax.account, `${path}/account`);
      if (wax?.private_key)
        return importWaxKey({ account, private_key: wax.private_key, public_key: wax.public_key }, path);
      // Without a new private key the public key can only restate the one the wallet has.
      if (wax?.public_key !== undefined)
        checkSamePublicKey(wax.public_key, wallet.publicKey!, `${path}/public_key`);
      return { ...unchanged, accountId: account };
    }
  }
}
