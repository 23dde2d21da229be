import { isNearAccountId } from "../../../platform/chains/accounts.ts";
import { invalid } from "../../../platform/http/errors.ts";
import {
  argumentSpecs,
  type CallParameters,
  callParameters,
  fill,
  jsonSafe,
  type RenderPaths,
  requireObject,
  type Vars,
} from "./args.ts";

export interface NearCall extends CallParameters {
  contract_id: string;
  method_name: string;
  method_type: string;
  attached_deposit_amount: string;
  gas_amount: string;
  data: Record<string, unknown>;
}

// 30 Tgas is what near-api-js attaches by default; 300 Tgas is the protocol's per-call maximum.
const DEFAULT_GAS = "30000000000000";
const MAX_GAS = 300_000_000_000_000n;

export function prepareNearCall(input: Partial<NearCall>, path: string): NearCall {
  if (!isNearAccountId(input.contract_id ?? ""))
    throw invalid(`${path}/contract_id`, "must be a NEAR account id");
  const gas = input.gas_amount ?? DEFAULT_GAS;
  if (BigInt(gas) === 0n || BigInt(gas) > MAX_GAS)
    throw invalid(`${path}/gas_amount`, "must be between 1 and 300 Tgas");
  return {
    contract_id: input.contract_id!,
    method_name: input.method_name!,
    method_type: input.method_type ?? "change",
    attached_deposit_amount: String(BigInt(input.attached_deposit_amount ?? "0")),
    gas_amount: String(BigInt(gas)),
    data: input.data ?? {},
    ...callParameters(input),
  };
}

export interface RenderedNearCall {
  signer_id: string;
  receiver_id: string;
  method_name: string;
  method_type: string;
  args: Record<string, unknown>;
  args_base64: string;
  gas: string;
  deposit: string;
}

/** A NEAR function call: JSON args (as the contract reads them, and base64 as sent), gas and deposit. */
export function renderNearCall(
  call: NearCall,
  vars: Vars,
  signer: string,
  paths: RenderPaths,
): RenderedNearCall {
  const specs = argumentSpecs(call, { ...call.data, ...call.data_input }, paths);
  const args = requireObject(
    jsonSafe(fill(specs, vars)),
    `${paths.call}/${call.template ? "template" : "data_input"}`,
  );
  return {
    signer_id: signer,
    receiver_id: call.contract_id,
    method_name: call.method_name,
    method_type: call.method_type,
    args,
    args_base64: Buffer.from(JSON.stringify(args), "utf8").toString("base64"),
    gas: call.gas_amount,
    deposit: call.attached_deposit_amount,
  };
}
