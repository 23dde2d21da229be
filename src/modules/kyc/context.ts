import type { Deps } from "../../deps.ts";
import type { KycProvider } from "../../platform/providers/kyc/types.ts";
import { createSealer, type Sealer } from "./sealing.ts";

/** What the KYC module works with: the provider chosen in `Deps`, and its sealing key. */
export interface KycContext {
  provider: KycProvider;
  sealer: Sealer;
}

export function createKycContext(deps: Deps): KycContext {
  return { provider: deps.kycProvider, sealer: createSealer(deps) };
}
