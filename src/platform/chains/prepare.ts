import { isAddress as isSolanaAddress } from "@solana/kit";
import { type Abi, encodeFunctionData, isAddress as isEvmAddress } from "viem";
import { ChainError, type EvmCall, type NearCall, type SolanaCall, type WaxCall } from "./adapter.ts";
import { serializeWaxAction } from "./wax.ts";

/**
 * From a trigger's call data (already rendered with the payment's parameters) to the adapter's
 * PreparedCall. Every problem is a ChainError `invalid_call` naming what is wrong, so a bad trigger
 * fails before anything is signed.
 */

function invalid(message: string): never {
  throw new ChainError("invalid_call", message);
}

function positiveInteger(
  value: string | number | bigint | undefined,
  name: string,
  fallback?: bigint,
): bigint {
  if (value === undefined || value === "") {
    if (fallback === undefined) invalid(`${name} is required`);
    return fallback;
  }
  const text = String(value);
  if (!/^\d+$/.test(text)) invalid(`${name} must be a non-negative integer, got "${text}"`);
  return BigInt(text);
}

function parseJson<T>(value: string | T, name: string): T {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as T;
  } catch {
    return invalid(`${name} is not valid JSON`);
  }
}

export function prepareEvmCall(input: {
  contractId: string;
  abi: string | Abi;
  methodName: string;
  args: readonly unknown[];
  gasLimit: string | number | bigint;
  value?: string | number | bigint;
}): EvmCall {
  if (!isEvmAddress(input.contractId, { strict: false }))
    invalid(`contract_id ${input.contractId} is not an EVM address`);
  const abi = parseJson<Abi>(input.abi, "abi");
  const gasLimit = positiveInteger(input.gasLimit, "gas_limit");
  if (gasLimit === 0n) invalid("gas_limit must be above 0");
  let data: `0x${string}`;
  try {
    data = encodeFunctionData({ abi, functionName: input.methodName, args: input.args as unknown[] });
  } catch (error) {
    return invalid(
      `cannot encode ${input.methodName}: ${(error as { shortMessage?: string }).shortMessage ?? error}`,
    );
  }
  return {
    chain: "evm",
    to: input.contractId as `0x${string}`,
    data,
    value: positiveInteger(input.value, "value", 0n),
    gasLimit,
  };
}

/** NEAR account ids: 2-64 characters, lowercase alphanumerics separated by `-`, `_` or `.`. */
const NEAR_ACCOUNT = /^(?=.{2,64}$)(([a-z\d]+[-_])*[a-z\d]+\.)*([a-z\d]+[-_])*[a-z\d]+$/;

/** 300 TGas is the most one function call may attach on NEAR. */
const NEAR_MAX_GAS = 300_000_000_000_000n;

export function prepareNearCall(input: {
  contractId: string;
  methodName: string;
  args: unknown;
  gasAmount: string | number | bigint;
  attachedDepositAmount?: string | number | bigint;
}): NearCall {
  if (!NEAR_ACCOUNT.test(input.contractId))
    invalid(`contract_id ${input.contractId} is not a NEAR account id`);
  if (!input.methodName) invalid("method_name is required");
  const gas = positiveInteger(input.gasAmount, "gas_amount");
  if (gas === 0n || gas > NEAR_MAX_GAS) invalid("gas_amount must be above 0 and at most 300 TGas");
  return {
    chain: "near",
    receiverId: input.contractId,
    methodName: input.methodName,
    args: input.args ?? {},
    gas,
    deposit: positiveInteger(input.attachedDepositAmount, "attached_deposit_amount", 0n),
  };
}

/** Antelope names: up to 12 characters of a-z, 1-5 and dots (13th limited to a-j, not used here). */
const ANTELOPE_NAME = /^[a-z1-5.]{1,12}$/;

export function prepareWaxCall(input: {
  contractId: string;
  methodName: string;
  abi: string | object;
  data: Record<string, unknown>;
  actor: string;
  permission?: string;
}): WaxCall {
  for (const [name, value] of [
    ["contract_id", input.contractId],
    ["method_name", input.methodName],
    ["account", input.actor],
  ] as const) {
    if (!ANTELOPE_NAME.test(value)) invalid(`${name} ${value} is not an Antelope name`);
  }
  const abi = parseJson<object>(input.abi, "abi");
  let data: string;
  try {
    data = serializeWaxAction(abi, input.methodName, input.data);
  } catch (error) {
    return invalid(`cannot serialize ${input.methodName} with the ABI: ${(error as Error).message}`);
  }
  return {
    chain: "wax",
    account: input.contractId,
    name: input.methodName,
    authorization: [{ actor: input.actor, permission: input.permission ?? "active" }],
    data,
  };
}

export function prepareSolanaCall(input: {
  programId: string;
  accounts: { address: string; signer?: boolean; writable?: boolean }[];
  /** Instruction data: bytes, or a string in base64. */
  data: Uint8Array | string;
  computeUnits?: string | number;
}): SolanaCall {
  if (!isSolanaAddress(input.programId)) invalid(`contract_id ${input.programId} is not a Solana address`);
  for (const account of input.accounts) {
    if (!isSolanaAddress(account.address)) invalid(`account ${account.address} is not a Solana address`);
  }
  const units =
    input.computeUnits === undefined ? undefined : positiveInteger(input.computeUnits, "compute_units");
  // The runtime caps a transaction at 1.4 million compute units.
  if (units !== undefined && (units === 0n || units > 1_400_000n))
    invalid("compute_units must be 1 to 1,400,000");
  return {
    chain: "solana",
    programId: input.programId,
    accounts: input.accounts.map((a) => ({
      address: a.address,
      signer: a.signer ?? false,
      writable: a.writable ?? false,
    })),
    data: typeof input.data === "string" ? new Uint8Array(Buffer.from(input.data, "base64")) : input.data,
    ...(units === undefined ? {} : { computeUnits: Number(units) }),
  };
}
