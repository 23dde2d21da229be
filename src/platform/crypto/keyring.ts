import { createHmac, randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface MasterKey {
  /** Fingerprint naming the key in every envelope it wraps; reveals nothing about the key. */
  id: string;
  key: Buffer;
}

/** The current master key (wraps new data keys) and former ones (still unwrap old envelopes). */
export class Keyring {
  readonly current: MasterKey;
  readonly #byId: Map<string, MasterKey>;
  constructor(current: MasterKey, previous: MasterKey[] = []) {
    this.current = current;
    this.#byId = new Map([...previous, current].map((k) => [k.id, k]));
  }
  get(id: string): MasterKey | undefined {
    return this.#byId.get(id);
  }
  get ids(): string[] {
    return [...this.#byId.keys()];
  }
}

export function masterKeyOf(base64: string): MasterKey {
  const key = Buffer.from(base64, "base64");
  if (key.length !== 32) throw new Error("A master key is 32 bytes");
  const id = `mk_${createHmac("sha256", key).update("master-key-id").digest("hex").slice(0, 16)}`;
  return { id, key };
}

export const KEY_FILE = "secrets-master.keys";

export function keyFilePath(dataDir: string): string {
  return path.join(dataDir, KEY_FILE);
}

function readKeyFile(file: string): string[] {
  const mode = statSync(file).mode & 0o777;
  // A key file others can read is a leaked key: refuse it rather than use it quietly.
  if ((mode & 0o077) !== 0) {
    throw new Error(`${file} must be readable by its owner only (chmod 600), it is ${mode.toString(8)}`);
  }
  const keys = readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  if (keys.length === 0) throw new Error(`${file} holds no key`);
  return keys;
}

function writeKeyFile(file: string, keys: string[]): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${keys.join("\n")}\n`, { mode: 0o600, flag: "wx" });
  chmodSync(temp, 0o600);
  // Rename is atomic: a crash leaves either the old file or the new one, never half of one.
  renameSync(temp, file);
}

/**
 * The embedded default: keys kept in `DATA_DIR/secrets-master.keys` (mode 0600), one base64 key a
 * line, the current key first. Made with a fresh random key the first time it is needed.
 */
export function keyringFromFile(dataDir: string): Keyring {
  const file = keyFilePath(dataDir);
  let keys: string[];
  try {
    keys = readKeyFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    writeKeyFile(file, [randomBytes(32).toString("base64")]);
    keys = readKeyFile(file);
  }
  const [current, ...previous] = keys.map(masterKeyOf);
  return new Keyring(current, previous);
}

/** Puts a fresh key first in the key file; the former keys stay for unwrapping until re-wrapped. */
export function rotateKeyFile(dataDir: string): Keyring {
  const file = keyFilePath(dataDir);
  const existing = readKeyFile(file);
  writeKeyFile(file, [randomBytes(32).toString("base64"), ...existing]);
  return keyringFromFile(dataDir);
}

export function keyringFromConfig(config: {
  dataDir: string;
  secretsMasterKey: string | undefined;
  secretsMasterKeyPrevious: string[];
}): Keyring {
  if (!config.secretsMasterKey) return keyringFromFile(config.dataDir);
  return new Keyring(masterKeyOf(config.secretsMasterKey), config.secretsMasterKeyPrevious.map(masterKeyOf));
}
