import type { Chain } from "../../platform/chains/adapter.ts";
import { AppError, invalid } from "../../platform/http/errors.ts";
import {
  checkParamsInput,
  descriptorPath,
  emptyValue,
  omittedValues,
  type Param,
  parseParams,
} from "./params.ts";
import type { RenderPaths } from "./render/args.ts";
import type { EvmCall, RenderedEvmCall } from "./render/evm.ts";
import { chainRenderer } from "./render/lazy.ts";
import type { NearCall, RenderedNearCall } from "./render/near.ts";
import type { RenderedSolanaInstruction, SolanaCall } from "./render/solana.ts";
import type { RenderedWaxAction, WaxCall } from "./render/wax.ts";
import { OMITTED, type TemplateVars } from "./template.ts";

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
 * the chain's call. The trigger preview route and payments both come through here. An optional
 * parameter left out renders as its empty value (`emptyValue` in params.ts).
 */
export async function renderCall(
  trigger: RenderableTrigger,
  wallet: RenderWallet,
  input: unknown,
  inputPath = "/body/params_data_input",
  callPath = "/call_data",
): Promise<RenderedCall> {
  const chain = wallet.type;
  const params = parseParams(trigger.paramsData, "/params_data");
  const values = checkParamsInput(params, input, inputPath);
  const vars: TemplateVars = {
    ...values,
    wallet: wallet.accountId,
    custom_address: trigger.customAddressEnabled ? trigger.customAddress : null,
    [OMITTED]: omittedValues(params, values),
  };
  const call = (trigger.callData as Record<string, unknown>)[chain];
  const paths: RenderPaths = { input: inputPath, call: `${callPath}/${chain}` };
  switch (chain) {
    case "evm": {
      const { renderEvmCall } = await chainRenderer.evm();
      return { chain, evm: renderEvmCall(call as EvmCall, vars, wallet.accountId, paths) };
    }
    case "near": {
      const { renderNearCall } = await chainRenderer.near();
      return { chain, near: renderNearCall(call as NearCall, vars, wallet.accountId, paths) };
    }
    case "wax": {
      const { renderWaxCall } = await chainRenderer.wax();
      return {
        chain,
        wax: renderWaxCall(
          call as WaxCall,
          vars,
          { actor: wallet.accountId, permission: wallet.permission ?? "active" },
          paths,
        ),
      };
    }
    case "solana": {
      const { renderSolanaCall } = await chainRenderer.solana();
      return { chain, solana: renderSolanaCall(call as SolanaCall, vars, wallet.accountId, paths) };
    }
  }
}

/**
 * Refuses, at save time, an optional parameter whose empty value the call cannot encode (an
 * optional string bound to an EVM `address`, a nullable one bound to a typed argument): a shopper
 * could leave it empty and every such payment would fail. Judged against a base input that renders
 * (the trigger's example, else one generated from the descriptors); with none, nothing is learnt.
 */
export async function refuseUnomittable(
  trigger: RenderableTrigger,
  wallet: RenderWallet,
  params: Param[],
  base: Record<string, unknown>,
): Promise<void> {
  const attempt = async (input: Record<string, unknown>) => {
    try {
      await renderCall(trigger, wallet, input);
      return null;
    } catch (error) {
      if (error instanceof AppError) return error.errors?.[0]?.message ?? error.message;
      throw error;
    }
  };
  if ((await attempt(base)) !== null) return;
  for (const param of params.filter((p) => p.optional)) {
    const { [param.name]: _left, ...without } = base;
    const problem = await attempt(without);
    if (problem === null) continue;
    throw invalid(
      `${descriptorPath(param)}/optional`,
      `${param.name} is optional, but left empty it renders as ${JSON.stringify(emptyValue(param))} and the call cannot take that (${problem}); make it required${param.nullable ? " or not nullable" : ""}, or bind it to an argument that accepts it`,
    );
  }
}
