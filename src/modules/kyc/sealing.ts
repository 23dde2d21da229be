import type { Deps } from "../../deps.ts";

/**
 * Sealing for what the KYC module must read back: the edit token (answered on every POST, as
 * the interface asks) and the widget's inputs while they wait in a job. Each value is bound to
 * its record's id, so a sealed value copied onto another record does not open.
 */
export interface Sealer {
  seal(plain: string, kycId: string): string;
  open(sealed: string, kycId: string): string;
}

export const kycContext = (kycId: string) => `kyc:${kycId}`;

/** Seals with `deps.custody` as it is at each call, as every other sealed value does. */
export function createSealer(deps: Pick<Deps, "custody">): Sealer {
  return {
    seal: (plain, kycId) => deps.custody.sealText(kycContext(kycId), plain),
    // Any key of the ring: edit tokens sealed before a master-key rotation keep opening.
    open: (sealed, kycId) => deps.custody.openText(kycContext(kycId), sealed),
  };
}
