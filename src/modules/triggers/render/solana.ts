import {
  addEncoderSizePrefix,
  type Encoder,
  getAddressEncoder,
  getBase16Encoder,
  getBooleanEncoder,
  getI8Encoder,
  getI16Encoder,
  getI32Encoder,
  getI64Encoder,
  getU8Encoder,
  getU16Encoder,
  getU32Encoder,
  getU64Encoder,
  getU128Encoder,
  getUtf8Encoder,
} from "@solana/kit";
import { isSolanaAccount } from "../../../platform/chains/accounts.ts";
import { invalid } from "../../../platform/http/errors.ts";
import { references } from "../template.ts";
import {
  argumentPath,
  argumentSpecs,
  type CallParameters,
  callParameters,
  fill,
  namedSpecs,
  type RenderPaths,
  requireObject,
  toBigInt,
  type Vars,
} from "./args.ts";

export interface SolanaCall extends CallParameters {
  contract_id: string;
  method_name: string;
  method_type: string | null;
  abi: string | null;
  compute_units: string | null;
  data: Record<string, unknown>[];
}

/**
 * Field types of the instruction data, encoded in order with Borsh's rules (little-endian
 * integers; `string` is a u32 length then UTF-8), which Anchor and most native programs read.
 * `bytes` is raw hex with no length prefix, for discriminators such as Anchor's 8-byte one.
 */
const ENCODERS: Record<string, () => Encoder<never>> = {
  u8: () => getU8Encoder() as Encoder<never>,
  u16: () => getU16Encoder() as Encoder<never>,
  u32: () => getU32Encoder() as Encoder<never>,
  u64: () => getU64Encoder() as Encoder<never>,
  u128: () => getU128Encoder() as Encoder<never>,
  i8: () => getI8Encoder() as Encoder<never>,
  i16: () => getI16Encoder() as Encoder<never>,
  i32: () => getI32Encoder() as Encoder<never>,
  i64: () => getI64Encoder() as Encoder<never>,
  bool: () => getBooleanEncoder() as Encoder<never>,
  pubkey: () => getAddressEncoder() as Encoder<never>,
  string: () => addEncoderSizePrefix(getUtf8Encoder(), getU32Encoder()) as Encoder<never>,
  bytes: () => getBase16Encoder() as Encoder<never>,
};
const SOLANA_FIELD_TYPES = Object.keys(ENCODERS);

interface AccountSpec {
  address: string;
  signer: boolean;
  writable: boolean;
}

function parseAccounts(abi: string | null, path: string): AccountSpec[] {
  if (!abi) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(abi);
  } catch {
    throw invalid(path, 'must be JSON text: {"accounts": [...]}');
  }
  const accounts = (parsed as { accounts?: unknown })?.accounts;
  if (!Array.isArray(accounts))
    throw invalid(path, 'must hold {"accounts": [{address, signer?, writable?}]}');
  return accounts.map((a, i) => {
    const item = a as Partial<AccountSpec>;
    const literal = typeof item?.address === "string" && references(item.address).size === 0;
    if (typeof item?.address !== "string" || (literal && !isSolanaAccount(item.address))) {
      throw invalid(`${path}/accounts/${i}/address`, "must be a base58 address or a {{name}} placeholder");
    }
    return { address: item.address, signer: item.signer === true, writable: item.writable === true };
  });
}

export function prepareSolanaCall(input: Partial<SolanaCall>, path: string): SolanaCall {
  if (!isSolanaAccount(input.contract_id ?? ""))
    throw invalid(`${path}/contract_id`, "must be a base58 program id");
  if (input.compute_units && BigInt(input.compute_units) > 1_400_000n) {
    throw invalid(`${path}/compute_units`, "must be at most 1,400,000 (the transaction limit)");
  }
  (input.data ?? []).forEach((field, i) => {
    if (typeof field.name !== "string" || field.name === "")
      throw invalid(`${path}/data/${i}/name`, "is required");
    if (!SOLANA_FIELD_TYPES.includes(String(field.type))) {
      throw invalid(`${path}/data/${i}/type`, `must be one of ${SOLANA_FIELD_TYPES.join(", ")}`);
    }
  });
  parseAccounts(input.abi ?? null, `${path}/abi`);
  return {
    contract_id: input.contract_id!,
    method_name: input.method_name!,
    method_type: input.method_type ?? null,
    abi: input.abi ?? null,
    compute_units: input.compute_units ?? null,
    data: input.data ?? [],
    ...callParameters(input),
  };
}

function encodeField(type: string, value: unknown, path: string): Uint8Array {
  let input: unknown = value;
  if (/^[ui]\d+$/.test(type)) {
    const integer = toBigInt(value);
    if (integer === undefined) throw invalid(path, `must be an integer for ${type}`);
    input = Number(type.slice(1)) <= 32 ? Number(integer) : integer;
  } else if (type === "bool" && typeof value !== "boolean") throw invalid(path, "must be a boolean");
  else if (type === "pubkey" && !(typeof value === "string" && isSolanaAccount(value))) {
    throw invalid(path, "must be a base58 address");
  } else if (type === "string" && typeof value !== "string") throw invalid(path, "must be a string");
  else if (type === "bytes") {
    if (typeof value !== "string" || !/^(0x)?([0-9a-fA-F]{2})*$/.test(value))
      throw invalid(path, "must be hex bytes");
    input = value.replace(/^0x/, "").toLowerCase();
  }
  try {
    return new Uint8Array(ENCODERS[type]().encode(input as never));
  } catch {
    throw invalid(path, `is out of range for ${type}`);
  }
}

export interface RenderedSolanaInstruction {
  fee_payer: string;
  program_id: string;
  accounts: { address: string; is_signer: boolean; is_writable: boolean }[];
  data_base64: string;
  data_hex: string;
  compute_units: string | null;
}

/** One instruction: the program, its account metas, and the data bytes laid out by `data`. */
export function renderSolanaCall(
  call: SolanaCall,
  vars: Vars,
  feePayer: string,
  paths: RenderPaths,
): RenderedSolanaInstruction {
  const specs = requireObject(argumentSpecs(call, namedSpecs(call.data, call.data_input), paths), paths.call);
  const parts = call.data.map((field) => {
    const name = String(field.name);
    const raw = specs[name];
    if (raw === undefined) throw invalid(`${paths.call}/data_input/${name}`, "has no value for this field");
    return encodeField(String(field.type), fill(raw, vars), argumentPath(raw, name, paths));
  });
  const data = Buffer.concat(parts);
  const accounts = parseAccounts(call.abi, `${paths.call}/abi`).map((account, i) => {
    const address = fill(account.address, vars);
    if (typeof address !== "string" || !isSolanaAccount(address)) {
      throw invalid(argumentPath(account.address, `accounts/${i}`, paths), "must be a base58 address");
    }
    return { address, is_signer: account.signer, is_writable: account.writable };
  });
  return {
    fee_payer: feePayer,
    program_id: call.contract_id,
    accounts,
    data_base64: data.toString("base64"),
    data_hex: data.toString("hex"),
    compute_units: call.compute_units,
  };
}
