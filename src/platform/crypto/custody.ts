import { type Envelope, open, rewrap, seal } from "./envelope.ts";
import { type Keyring, keyringFromConfig } from "./keyring.ts";

/**
 * Seals and opens secrets under the service's master keys. The keyring is loaded on first use,
 * so a process that never touches a secret never creates or reads a key file.
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
}

export function createCustody(config: Parameters<typeof keyringFromConfig>[0]): Custody {
  return new Custody(() => keyringFromConfig(config));
}
