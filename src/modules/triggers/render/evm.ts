import { type Abi, type AbiFunction, type AbiParameter, encodeFunctionData } from "viem";
import { normalizeEvmAddress } from "../../../platform/chains/accounts.ts";
import { invalid } from "../../../platform/http/errors.ts";
import {
  argumentPath,
  argumentSpecs,
  type CallParameters,
  callParameters,
  fill,
  jsonSafe,
  namedSpecs,
  type RenderPaths,
  toBigInt,
  type Vars,
} from "./args.ts";

export interface EvmCall extends CallParameters {
  contract_id: string;
  method_name: string;
  method_type: string;
  abi: string;
  gas_limit: string | null;
  data: Record<string, unknown>[];
}

/** The function `method_name` of the ABI; an overloaded name is refused as ambiguous. */
function evmFunction(abiText: string, methodName: string, path: string): AbiFunction {
  let abi: Abi;
  try {
    abi = JSON.parse(abiText) as Abi;
  } catch {
    throw invalid(`${path}/abi`, "must be a JSON ABI");
  }
  if (!Array.isArray(abi)) throw invalid(`${path}/abi`, "must be a JSON array (a contract ABI)");
  const found = abi.filter(
    (item): item is AbiFunction => item?.type === "function" && item.name === methodName,
  );
  if (found.length === 0) throw invalid(`${path}/method_name`, "is not a function of the ABI");
  if (found.length > 1)
    throw invalid(`${path}/method_name`, "is overloaded in the ABI; keep only the one to call");
  if (!Array.isArray(found[0].inputs)) throw invalid(`${path}/abi`, "the function has no inputs list");
  return found[0];
}

/** Checks and completes an EVM call when a trigger is saved. */
export function prepareEvmCall(input: Partial<EvmCall>, path: string): EvmCall {
  const contract = normalizeEvmAddress(input.contract_id ?? "");
  if (!contract) throw invalid(`${path}/contract_id`, "must be an EVM address");
  const fn = evmFunction(input.abi ?? "", input.method_name ?? "", path);
  return {
    contract_id: contract,
    method_name: fn.name,
    method_type: input.method_type ?? fn.stateMutability,
    abi: input.abi!,
    gas_limit: input.gas_limit ?? null,
    data: input.data ?? [],
    ...callParameters(input),
  };
}

function coerce(param: AbiParameter, value: unknown, path: string): unknown {
  const type = param.type;
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (array) {
    if (!Array.isArray(value)) throw invalid(path, `must be an array for ${type}`);
    if (array[2] !== "" && value.length !== Number(array[2]))
      throw invalid(path, `must have ${array[2]} items`);
    const element = { ...param, type: array[1] } as AbiParameter;
    return value.map((item, i) => coerce(element, item, `${path}/${i}`));
  }
  if (type === "tuple") {
    const components = (param as { components?: readonly AbiParameter[] }).components ?? [];
    return components.map((component, i) => {
      const item = Array.isArray(value)
        ? value[i]
        : (value as Record<string, unknown> | null)?.[component.name ?? ""];
      return coerce(component, item, `${path}/${component.name || i}`);
    });
  }
  if (/^u?int\d*$/.test(type)) {
    const integer = toBigInt(value);
    if (integer === undefined) throw invalid(path, `must be an integer (number or decimal text) for ${type}`);
    const bits = BigInt(type.replace(/^u?int/, "") || "256");
    const [min, max] = type.startsWith("u")
      ? [0n, 2n ** bits - 1n]
      : [-(2n ** (bits - 1n)), 2n ** (bits - 1n) - 1n];
    if (integer < min || integer > max) throw invalid(path, `is out of range for ${type}`);
    return integer;
  }
  if (type === "address") {
    const address = typeof value === "string" ? normalizeEvmAddress(value) : undefined;
    if (!address) throw invalid(path, "must be an EVM address");
    return address;
  }
  if (type === "bool") {
    if (typeof value !== "boolean") throw invalid(path, "must be a boolean");
    return value;
  }
  if (/^bytes\d*$/.test(type)) {
    if (typeof value !== "string" || !/^0x([0-9a-fA-F]{2})*$/.test(value))
      throw invalid(path, "must be 0x hex bytes");
    return value;
  }
  if (type === "string") {
    if (typeof value !== "string") throw invalid(path, "must be a string");
    return value;
  }
  return value;
}

export interface RenderedEvmCall {
  from: string;
  to: string;
  data: string;
  value: string;
  gas_limit: string | null;
  function_name: string;
  args: unknown[];
}

/** The transaction the EVM adapter sends: calldata encoded by viem from the ABI. */
export function renderEvmCall(call: EvmCall, vars: Vars, from: string, paths: RenderPaths): RenderedEvmCall {
  const fn = evmFunction(call.abi, call.method_name, paths.call);
  const specs = argumentSpecs(call, namedSpecs(call.data, call.data_input), paths);
  const args = fn.inputs.map((input, i) => {
    const name = input.name || String(i);
    const raw = Array.isArray(specs) ? specs[i] : (specs as Record<string, unknown>)[name];
    const path = argumentPath(raw, name, paths);
    if (raw === undefined)
      throw invalid(`${paths.call}/data_input/${name}`, "has no value for this ABI input");
    return coerce(input, fill(raw, vars), path);
  });
  let data: string;
  try {
    data = encodeFunctionData({ abi: [fn], functionName: fn.name, args });
  } catch (error) {
    throw invalid(
      paths.call,
      `cannot be encoded: ${(error as { shortMessage?: string }).shortMessage ?? "invalid"}`,
    );
  }
  return {
    from,
    to: call.contract_id,
    data,
    value: "0",
    gas_limit: call.gas_limit,
    function_name: fn.name,
    args: jsonSafe(args) as unknown[],
  };
}
