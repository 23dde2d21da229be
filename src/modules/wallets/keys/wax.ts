import { PrivateKey, PublicKey } from "@wharfkit/antelope";
import { isWaxAccount } from "../../../platform/chains/accounts.ts";
import { invalid } from "../../../platform/http/errors.ts";
import type { KeyMaterial } from "./types.ts";

export function checkWaxAccount(account: string, path: string): string {
  if (!isWaxAccount(account))
    throw invalid(path, "must be 1 to 12 characters of a-z, 1-5 and dot, not ending in a dot");
  return account;
}

/** WAX accounts exist only on chain, so the account is always named by the caller. */
export function generateWaxKey(account: string): KeyMaterial {
  const key = PrivateKey.generate("K1");
  return { accountId: account, publicKey: key.toPublic().toString(), secret: key.toString() };
}

/** A K1 private key (WIF or `PVT_K1_`); a public key given with it must be its own. */
export function importWaxKey(
  input: { account: string; private_key: string; public_key?: string },
  path: string,
): KeyMaterial {
  let key: PrivateKey;
  try {
    key = PrivateKey.from(input.private_key.trim());
  } catch {
    throw invalid(`${path}/private_key`, "is not a valid Antelope private key (WIF or PVT_K1_)");
  }
  const own = key.toPublic();
  if (input.public_key !== undefined) {
    let given: PublicKey;
    try {
      given = PublicKey.from(input.public_key.trim());
    } catch {
      throw invalid(`${path}/public_key`, "is not a valid Antelope public key");
    }
    if (!given.equals(own)) throw invalid(`${path}/public_key`, "is not the public key of private_key");
  }
  return { accountId: input.account, publicKey: own.toString(), secret: key.toString() };
}

export function checkSamePublicKey(given: string, stored: string, path: string): void {
  let same: boolean;
  try {
    same = PublicKey.from(given.trim()).equals(PublicKey.from(stored));
  } catch {
    throw invalid(path, "is not a valid Antelope public key");
  }
  if (!same) throw invalid(path, "is not the public key of the wallet's private key; send private_key too");
}
