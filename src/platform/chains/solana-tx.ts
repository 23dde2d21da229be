import { generateKeyPairSync } from "node:crypto";
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  type Blockhash,
  createKeyPairSignerFromBytes,
  createTransactionMessage,
  getBase58Decoder,
  getBase58Encoder,
  type Instruction,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type TransactionSigner,
} from "@solana/kit";
import { ChainError, type SolanaCall, type SolanaInstruction } from "./adapter.ts";

/**
 * Building and signing, shared by the RPC adapter and the litesvm tests, so the transaction the
 * tests execute is byte for byte the one the adapter would send.
 */

const COMPUTE_BUDGET_PROGRAM = address("ComputeBudget111111111111111111111111111111");

export interface Lifetime {
  blockhash: Blockhash;
  lastValidBlockHeight: bigint;
}

/** The wallet's key: base58 of the 64-byte secret key (the CLI's keypair bytes), or its JSON array. */
export async function solanaSigner(privateKey: string): Promise<KeyPairSigner> {
  let bytes: Uint8Array;
  try {
    bytes = privateKey.trim().startsWith("[")
      ? Uint8Array.from(JSON.parse(privateKey) as number[])
      : new Uint8Array(getBase58Encoder().encode(privateKey.trim()));
  } catch {
    throw new ChainError("bad_key", "the Solana key is neither base58 nor a JSON byte array");
  }
  if (bytes.length !== 64) throw new ChainError("bad_key", "a Solana secret key has 64 bytes");
  return createKeyPairSignerFromBytes(bytes);
}

function role(signer: boolean, writable: boolean): AccountRole {
  if (signer) return writable ? AccountRole.WRITABLE_SIGNER : AccountRole.READONLY_SIGNER;
  return writable ? AccountRole.WRITABLE : AccountRole.READONLY;
}

/** The prepared call as a kit instruction, preceded by a compute-unit limit when one is set. */
export function callInstructions(call: SolanaCall): Instruction[] {
  const instructions: Instruction[] = [];
  if (call.computeUnits !== undefined) {
    const data = new Uint8Array(5);
    data[0] = 2; // ComputeBudgetInstruction::SetComputeUnitLimit
    new DataView(data.buffer).setUint32(1, call.computeUnits, true);
    instructions.push({ programAddress: COMPUTE_BUDGET_PROGRAM, accounts: [], data });
  }
  for (const ix of [call, ...(call.extraInstructions ?? [])]) {
    instructions.push({
      programAddress: address(ix.programId),
      accounts: ix.accounts.map((a) => ({ address: address(a.address), role: role(a.signer, a.writable) })),
      data: ix.data,
    });
  }
  return instructions;
}

/** Built kit instructions (e.g. the compression builders') as a SolanaCall any adapter can send. */
export function solanaCallFromInstructions(
  instructions: readonly Instruction[],
  extraSigners: string[] = [],
): SolanaCall {
  const [first, ...rest] = instructions.map(
    (ix): SolanaInstruction => ({
      programId: ix.programAddress,
      accounts: (ix.accounts ?? []).map((a) => ({
        address: a.address,
        signer: a.role === AccountRole.READONLY_SIGNER || a.role === AccountRole.WRITABLE_SIGNER,
        writable: a.role === AccountRole.WRITABLE || a.role === AccountRole.WRITABLE_SIGNER,
      })),
      data: new Uint8Array(ix.data ?? []),
    }),
  );
  if (!first) throw new ChainError("invalid_call", "a Solana transaction needs an instruction");
  return { chain: "solana", ...first, extraInstructions: rest, extraSigners };
}

/** A new keypair's secret in the wallet key format (base58 of seed + public key), for new accounts. */
export function generateSolanaSecret(): string {
  const { privateKey } = generateKeyPairSync("ed25519");
  const jwk = privateKey.export({ format: "jwk" });
  return getBase58Decoder().decode(
    Buffer.concat([Buffer.from(jwk.d ?? "", "base64url"), Buffer.from(jwk.x ?? "", "base64url")]),
  );
}

/**
 * A signed v0 transaction paid by `feePayer`. Extra signers (a new account's keypair) sign the
 * accounts they own; instruction metas that name a signer by address are signed by whichever
 * signer holds that address.
 */
export async function buildSignedTransaction(
  instructions: Instruction[],
  feePayer: TransactionSigner,
  lifetime: Lifetime,
  extraSigners: TransactionSigner[] = [],
) {
  const byAddress = new Map<string, TransactionSigner>(
    [feePayer, ...extraSigners].map((s) => [s.address, s]),
  );
  const withSigners = instructions.map((ix) => ({
    ...ix,
    accounts: ix.accounts?.map((meta) => {
      const signer = byAddress.get(meta.address);
      const isSigner = meta.role === AccountRole.READONLY_SIGNER || meta.role === AccountRole.WRITABLE_SIGNER;
      return isSigner && signer ? { ...meta, signer } : meta;
    }),
  }));
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
    (m) => appendTransactionMessageInstructions(withSigners, m),
  );
  // Metas carry their signer objects only where one was found above, which the types cannot follow.
  return signTransactionMessageWithSigners(
    message as Parameters<typeof signTransactionMessageWithSigners>[0],
  );
}
