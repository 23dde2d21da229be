import type { Config } from "../../config.ts";
import { seal, sealingKeys, unsealWithAny } from "../../platform/crypto/sealed.ts";

/**
 * Sealing for what the KYC module must read back: the edit token (answered on every POST, as
 * the interface asks) and the widget's inputs while they wait in a job. Each value is bound to
 * its record's id, so a sealed value copied onto another record does not open.
 */
export interface Sealer {
  seal(plain: string, kycId: string): string;
  open(sealed: string, kycId: string): string;
}

const context = (kycId: string) => `kyc:${kycId}`;

export function createSealer(config: Pick<Config, "masterKey" | "masterKeyPrevious" | "dataDir">): Sealer {
  const keys = sealingKeys(config);
  return {
    seal: (plain, kycId) => seal(keys.current.key, plain, context(kycId)),
    // Any key of the ring: edit tokens sealed before a master-key rotation keep opening.
    open: (sealed, kycId) => unsealWithAny(keys, sealed, context(kycId)).plaintext,
  };
}
