import type { Chain } from "../../platform/chains/adapter.ts";
import { checkParamsInput, parseParams } from "./params.ts";
import type { RenderPaths } from "./render/args.ts";
import { type EvmCall, type RenderedEvmCall, renderEvmCall } from "./render/evm.ts";
import { type NearCall, type RenderedNearCall, renderNearCall } from "./render/near.ts";
import { type RenderedSolanaInstruction, renderSolanaCall, type SolanaCall } from "./render/solana.ts";
import { type RenderedWaxAction, renderWaxCall, type WaxCall } from "./render/wax.ts";

export interface RenderableTrigger {
  callData: unknown;
  paramsData: unknown;
  customAddressEnabled: boolean;
  customAddress: string | null;
}

export interface RenderWallet {
  type: Chain;
  accountId: string;
  permission: string | null;
}

export type RenderedCall =
  | { chain: "evm"; evm: RenderedEvmCall }
  | { chain: "near"; near: RenderedNearCall }
  | { chain: "wax"; wax: RenderedWaxAction }
  | { chain: "solana"; solana: RenderedSolanaInstruction };

/**
 * The exact call a trigger makes for one input: the input is checked against the trigger's
 * parameter descriptors (each failure names its parameter under `inputPath`), then placed into
 * the chain's call. The trigger preview route and payments both come through here.
 */
export function renderCall(
  trigger: RenderableTrigger,
  wallet: RenderWallet,
  input: unknown,
  inputPath = "/body/params_data_input",
  callPath = "/call_data",
): RenderedCall {
  const chain = wallet.type;
  const params = parseParams(trigger.paramsData, "/params_data");
  const values = checkParamsInput(params, input, inputPath);
  const vars = {
    ...values,
    wallet: wallet.accountId,
    custom_address: trigger.customAddressEnabled ? trigger.customAddress : null,
  };
  const call = (trigger.callData as Record<string, unknown>)[chain];
  const paths: RenderPaths = { input: inputPath, call: `${callPath}/${chain}` };
  switch (chain) {
    case "evm":
      return { chain, evm: renderEvmCall(call as EvmCall, vars, wallet.accountId, paths) };
    case "near":
      return { chain, near: renderNearCall(call as NearCall, vars, wallet.accountId, paths) };
    case "wax":
      return {
        chain,
        wax: renderWaxCall(
          call as WaxCall,
          vars,
          { actor: wallet.accountId, permission: wallet.permission ?? "active" },
          paths,
        ),
      };
    case "solana":
      return { chain, solana: renderSolanaCall(call as SolanaCall, vars, wallet.accountId, paths) };
  }
}
