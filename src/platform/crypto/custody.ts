import {
  type Envelope,
  envelopeFromText,
  envelopeToText,
  isEnvelopeText,
  open,
  rewrap,
  seal,
} from "./envelope.ts";
import { type Keyring, keyringFromConfig } from "./keyring.ts";
import { isLegacySealed, openLegacySealed } from "./legacy-sealed.ts";

/**
 * The one way the service seals what it must read back (wallet and Solana account keys, webhook
 * signing secrets, KYC edit tokens and queued inputs, payment tokens, sandbox mails): envelope
 * encryption under the master keys (envelope.ts). Tables with three columns keep an `Envelope`;
 * tables with one text column keep its text form (`sealText`/`openText`). The keyring is loaded on
 * first use, so a process that never touches a secret never creates or reads a key file.
 */
export class Custody {
  readonly #load: () => Keyring;
  #keyring: Keyring | undefined;
  constructor(load: () => Keyring) {
    this.#load = load;
  }
  get keyring(): Keyring {
    this.#keyring ??= this.#load();
    return this.#keyring;
  }
  seal(context: string, plaintext: string): Envelope {
    return seal(this.keyring, context, plaintext);
  }
  open(context: string, envelope: Envelope): string {
    return open(this.keyring, context, envelope);
  }
  /** Re-wraps under the current key; undefined when the envelope already is. */
  rewrap(context: string, envelope: Envelope): Envelope | undefined {
    if (envelope.keyId === this.keyring.current.id) return undefined;
    return rewrap(this.keyring, context, envelope);
  }
  /** `seal` in one text column's form. */
  sealText(context: string, plaintext: string): string {
    return envelopeToText(this.seal(context, plaintext));
  }
  /** Opens what `sealText` made, and values stored by the former direct scheme (legacy-sealed.ts). */
  openText(context: string, sealed: string): string {
    if (isLegacySealed(sealed)) return openLegacySealed(this.keyring, sealed, context);
    return this.open(context, envelopeFromText(sealed));
  }
  /**
   * The stored text moved to the current master key: an envelope re-wrapped (its ciphertext kept),
   * a value of the former scheme sealed afresh as an envelope. Undefined when nothing is to move.
   */
  resealText(context: string, sealed: string): string | undefined {
    if (isLegacySealed(sealed))
      return this.sealText(context, openLegacySealed(this.keyring, sealed, context));
    if (!isEnvelopeText(sealed)) throw new Error(`A sealed secret (${context}) is in no known form`);
    const next = this.rewrap(context, envelopeFromText(sealed));
    return next && envelopeToText(next);
  }
}

export function createCustody(config: Parameters<typeof keyringFromConfig>[0]): Custody {
  return new Custody(() => keyringFromConfig(config));
}
