import { ABI, Serializer } from "@wharfkit/antelope";
import { isWaxAccount } from "../../../platform/chains/accounts.ts";
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
  requireObject,
  type Vars,
} from "./args.ts";

export interface WaxCall extends CallParameters {
  contract_id: string;
  method_name: string;
  abi: string;
  gas_limit: string | null;
  data: Record<string, unknown>[];
}

/** The parsed ABI and the struct type of action `method_name`. */
function waxAction(abiText: string, methodName: string, path: string): { abi: ABI; type: string } {
  let abi: ABI;
  try {
    abi = ABI.from(JSON.parse(abiText));
  } catch {
    throw invalid(`${path}/abi`, "must be an Antelope ABI as JSON text");
  }
  const action = abi.actions.find((a) => String(a.name) === methodName);
  if (!action) throw invalid(`${path}/method_name`, "is not an action of the ABI");
  return { abi, type: String(action.type) };
}

export function prepareWaxCall(input: Partial<WaxCall>, path: string): WaxCall {
  if (!isWaxAccount(input.contract_id ?? ""))
    throw invalid(`${path}/contract_id`, "must be a WAX account name");
  if (!isWaxAccount(input.method_name ?? "")) throw invalid(`${path}/method_name`, "must be an action name");
  waxAction(input.abi ?? "", input.method_name!, path);
  return {
    contract_id: input.contract_id!,
    method_name: input.method_name!,
    abi: input.abi!,
    gas_limit: input.gas_limit ?? null,
    data: input.data ?? [],
    ...callParameters(input),
  };
}

export interface RenderedWaxAction {
  account: string;
  name: string;
  authorization: { actor: string; permission: string }[];
  /** The action data serialized with the contract's ABI, hex. */
  data: string;
  args: Record<string, unknown>;
}

export function renderWaxCall(
  call: WaxCall,
  vars: Vars,
  authority: { actor: string; permission: string },
  paths: RenderPaths,
): RenderedWaxAction {
  const { abi, type } = waxAction(call.abi, call.method_name, paths.call);
  const specs = requireObject(argumentSpecs(call, namedSpecs(call.data, call.data_input), paths), paths.call);
  const args = requireObject(jsonSafe(fill(specs, vars)), paths.call);
  let data: string;
  try {
    data = Serializer.encode({ object: args, abi, type }).hexString;
  } catch (error) {
    const message = (error as Error).message;
    // Antelope names the failing field as `root<type>.field` or `(root.field)`.
    const field = /root(?:<[^>]*>)?\.([A-Za-z0-9_]+)/.exec(message)?.[1];
    const path = field ? argumentPath(specs[field], field, paths) : paths.call;
    throw invalid(
      path,
      `cannot be serialized for ${call.method_name}: ${message.replace(/^Encoding error at /, "")}`,
    );
  }
  return {
    account: call.contract_id,
    name: call.method_name,
    authorization: [authority],
    data,
    args,
  };
}
