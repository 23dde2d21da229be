import type { Chain } from "../../platform/chains/adapter.ts";
import { invalid } from "../../platform/http/errors.ts";
import type { Param } from "./params.ts";
import { RESERVED_NAMES } from "./params.ts";
import type { EvmCall } from "./render/evm.ts";
import { chainRenderer } from "./render/lazy.ts";
import type { NearCall } from "./render/near.ts";
import type { SolanaCall } from "./render/solana.ts";
import type { WaxCall } from "./render/wax.ts";
import { parseTemplate, references } from "./template.ts";

export interface CallDataInput {
  near?: Partial<NearCall>;
  evm?: Partial<EvmCall>;
  wax?: Partial<WaxCall>;
  solana?: Partial<SolanaCall>;
}

/** As stored: one key, the chain of the trigger's wallet. */
export type StoredCallData =
  | { near: NearCall }
  | { evm: EvmCall }
  | { wax: WaxCall }
  | { solana: SolanaCall };

function checkReferences(chain: Chain, call: Record<string, unknown>, params: Param[], path: string) {
  const known = new Set([...params.map((p) => p.name), ...RESERVED_NAMES]);
  const sources: [string, unknown][] = [
    ["data", call.data],
    ["data_input", call.data_input],
    ["template", typeof call.template === "string" ? parseTemplate(call.template, `${path}/template`) : null],
    // Solana's account list may name accounts by parameter.
    ["abi", chain === "solana" ? call.abi : null],
  ];
  for (const [field, value] of sources) {
    for (const name of references(value)) {
      if (!known.has(name))
        throw invalid(`${path}/${field}`, `references {{${name}}}, which is not a parameter`);
    }
  }
}

/**
 * Checks the call of a trigger being saved: exactly the wallet's chain, the chain's own rules
 * (addresses, ABI and method, gas bounds), and placeholders that name declared parameters.
 */
export async function prepareCallData(
  chain: Chain,
  input: CallDataInput | undefined,
  params: Param[],
  path: string,
): Promise<StoredCallData> {
  for (const key of Object.keys(input ?? {})) {
    if (key !== chain) throw invalid(`${path}/${key}`, `does not match the wallet's chain (${chain})`);
  }
  const own = input?.[chain];
  if (!own) throw invalid(`${path}/${chain}`, "is required: the call on the wallet's chain");
  const at = `${path}/${chain}`;
  let stored: StoredCallData;
  switch (chain) {
    case "near":
      stored = { near: (await chainRenderer.near()).prepareNearCall(own as Partial<NearCall>, at) };
      break;
    case "evm":
      stored = { evm: (await chainRenderer.evm()).prepareEvmCall(own as Partial<EvmCall>, at) };
      break;
    case "wax":
      stored = { wax: (await chainRenderer.wax()).prepareWaxCall(own as Partial<WaxCall>, at) };
      break;
    case "solana":
      stored = { solana: (await chainRenderer.solana()).prepareSolanaCall(own as Partial<SolanaCall>, at) };
      break;
  }
  checkReferences(chain, (stored as unknown as Record<string, Record<string, unknown>>)[chain], params, at);
  return stored;
}
