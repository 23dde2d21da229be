// The address packages alone, not viem's and @solana/kit's indexes: every process checks addresses
// (request validation), few send transactions, and those indexes are about half of a process's
// module loading (docs/benchmarks.md, "Chain SDKs loaded when first used"). `ox` is the package
// viem's own address functions are built on.
import { isAddress as isSolanaAddress } from "@solana/addresses";
import { checksum, validate } from "ox/Address";

import type { Chain } from "./adapter.ts";

/**
 * An EVM address, checksummed (EIP-55) or all one case; a mixed-case address with a wrong
 * checksum is a typo and refused. Answers the checksummed form, undefined when invalid.
 */
export function normalizeEvmAddress(value: string): string | undefined {
  if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return undefined;
  const oneCase =
    value.slice(2) === value.slice(2).toLowerCase() || value.slice(2) === value.slice(2).toUpperCase();
  if (!oneCase && !validate(value, { strict: true })) return undefined;
  return checksum(value.toLowerCase());
}

// NEAR's account-id rules (nomicon, "Account ID"): 2 to 64 characters, lower-case letters,
// digits and the separators `-` and `_` inside a part, parts joined by `.`.
const NEAR_ACCOUNT = /^(([a-z\d]+[-_])*[a-z\d]+\.)*([a-z\d]+[-_])*[a-z\d]+$/;

export function isNearAccountId(value: string): boolean {
  return value.length >= 2 && value.length <= 64 && NEAR_ACCOUNT.test(value);
}

/** An implicit NEAR account: the hex of an ed25519 public key, 64 characters. */
export function isNearImplicitAccount(value: string): boolean {
  return /^[0-9a-f]{64}$/.test(value);
}

export function isSolanaAccount(value: string): boolean {
  return isSolanaAddress(value);
}

// Antelope names: up to 12 characters of a-z, 1-5 and `.`; a trailing dot is not a canonical name
// (it would encode the same as the name without it).
export function isWaxAccount(value: string): boolean {
  return /^[a-z1-5.]{0,11}[a-z1-5]$/.test(value);
}

/** Checks an account id for `chain`: the normalised form, or undefined when invalid. */
export function normalizeAccount(chain: Chain, value: string): string | undefined {
  switch (chain) {
    case "evm":
      return normalizeEvmAddress(value);
    case "near":
      return isNearAccountId(value) ? value : undefined;
    case "solana":
      return isSolanaAccount(value) ? value : undefined;
    case "wax":
      return isWaxAccount(value) ? value : undefined;
  }
}
