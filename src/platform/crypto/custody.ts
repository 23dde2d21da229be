import {
  type Envelope,
  envelopeFromText,
  envelopeToText,
  isEnvelopeText,
  open,
  rewrap,
  seal,
} from "./envelope.ts";
import { type Keyring, keyringFromConfig, type MasterKey } from "./keyring.ts";
import { isLegacySealed, openLegacySealed } from "./legacy-sealed.ts";

/**
 * The one way the service seals what it must read back (wallet and Solana account keys, webhook
 * signing secrets, KYC edit tokens and queued inputs, payment tokens, sandbox mails): envelope
 * encryption under the master keys (envelope.ts). Tables with three columns keep an `Envelope`;
 * tables with one text column keep its text form (`sealText`/`openText`). The keyring is loaded on
 * first use (and checked against the database's fingerprints at start-up, key-registry.ts).
 *
 * New secrets are sealed with the key the database names as sealing (`sealWith`), not simply the
 * keyring's current one: during a rotation, processes deployed with the new key keep sealing with
 * the old until `npm run rotate-master-key` switches, so a process not yet redeployed can still open
 * everything (docs/custody.md, "Rotating the master key").
 */
export class Custody {
  readonly #load: () => Keyring;
  readonly #reloadable: boolean;
  #keyring: Keyring | undefined;
  #sealingId: string | undefined;
  #reloadedAt = 0;
  /** `reloadable`: the keys come from the key file, which a rotation rewrites under a running process. */
  constructor(load: () => Keyring, options: { reloadable?: boolean } = {}) {
    this.#load = load;
    this.#reloadable = options.reloadable ?? false;
  }
  get keyring(): Keyring {
    this.#keyring ??= this.#load();
    return this.#keyring;
  }
  /** Whether the keys come from `DATA_DIR/master.key` (no SECRETS_MASTER_KEY). */
  get fromKeyFile(): boolean {
    return this.#reloadable;
  }
  /** The key new secrets are sealed with: the one the database names, when this process holds it. */
  get sealingKey(): MasterKey {
    const named = this.#sealingId === undefined ? undefined : this.keyring.get(this.#sealingId);
    return named ?? this.keyring.current;
  }
  /**
   * The database names `id` as the sealing key. A process on the key file that does not hold it
   * reads the file again: `npm run rotate-master-key` wrote the key there before naming it.
   */
  sealWith(id: string): void {
    this.#sealingId = id;
    if (!this.keyring.get(id)) this.reload(true);
  }
  /**
   * Reads the key file again (a no-op with SECRETS_MASTER_KEY); at most once a second unless forced,
   * so a value under a truly unknown key does not read the file on every request.
   */
  reload(force = false): boolean {
    if (!this.#reloadable) return false;
    if (!force && Date.now() - this.#reloadedAt < 1000) return false;
    this.#reloadedAt = Date.now();
    this.#keyring = this.#load();
    return true;
  }
  /** A value under a key this process does not hold may have been re-sealed by a rotation just now. */
  #knows(keyId: string): void {
    if (!this.keyring.get(keyId)) this.reload();
  }
  seal(context: string, plaintext: string): Envelope {
    return seal(this.keyring, context, plaintext, this.sealingKey);
  }
  open(context: string, envelope: Envelope): string {
    this.#knows(envelope.keyId);
    return open(this.keyring, context, envelope);
  }
  /** Re-wraps under the sealing key; undefined when the envelope already is. */
  rewrap(context: string, envelope: Envelope): Envelope | undefined {
    const master = this.sealingKey;
    if (envelope.keyId === master.id) return undefined;
    this.#knows(envelope.keyId);
    return rewrap(this.keyring, context, envelope, master);
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
  return new Custody(() => keyringFromConfig(config), { reloadable: !config.masterKey });
}
