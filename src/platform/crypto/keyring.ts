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

export function toMasterKey(key: Buffer): MasterKey {
  if (key.length !== 32) throw new Error("A master key is 32 bytes");
  const id = `mk_${createHmac("sha256", key).update("master-key-id").digest("hex").slice(0, 16)}`;
  return { id, key };
}

// The embedded default: one master key for every sealed secret (custody.ts); former keys live
// beside it until re-wrapped.
const KEY_FILE = "master.key";
export const PREVIOUS_KEYS_FILE = "master.key.previous";

export function keyFilePath(dataDir: string): string {
  return path.join(dataDir, KEY_FILE);
}

function readKeys(file: string): Buffer[] {
  const mode = statSync(file).mode & 0o777;
  // A key file others can read is a leaked key: refuse it rather than use it quietly.
  if ((mode & 0o077) !== 0) {
    throw new Error(`${file} must be readable by its owner only (chmod 600), it is ${mode.toString(8)}`);
  }
  const keys = readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .map((l) => Buffer.from(l, "base64"));
  if (keys.some((k) => k.length !== 32)) throw new Error(`${file} holds something that is not a 32-byte key`);
  return keys;
}

function readPrevious(dataDir: string): Buffer[] {
  try {
    return readKeys(path.join(dataDir, PREVIOUS_KEYS_FILE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

function writeAtomically(file: string, keys: Buffer[]): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, keys.map((k) => k.toString("base64")).join("\n"), { mode: 0o600, flag: "wx" });
  chmodSync(temp, 0o600);
  // Rename is atomic: a crash leaves either the old file or the new one, never half of one.
  renameSync(temp, file);
}

/**
 * The embedded default: `DATA_DIR/master.key` (mode 0600, one base64 key), made with a fresh
 * random key the first time it is needed, and `DATA_DIR/master.key.previous` (former keys, one a
 * line) after a rotation.
 */
export function keyringFromFile(dataDir: string): Keyring {
  const file = keyFilePath(dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    // "wx": two processes starting together cannot both write a key; the loser reads the winner's.
    writeFileSync(file, randomBytes(32).toString("base64"), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const [current] = readKeys(file);
  if (!current) throw new Error(`${file} holds no key`);
  return new Keyring(toMasterKey(current), readPrevious(dataDir).map(toMasterKey));
}

/** Makes a fresh current key; the former current key joins the previous ones, which still unwrap. */
export function rotateKeyFile(dataDir: string): Keyring {
  const old = keyringFromFile(dataDir);
  const previous = [old.current.key, ...readPrevious(dataDir)];
  // The previous file first: a crash before the second write leaves the old key current, and known twice.
  writeAtomically(path.join(dataDir, PREVIOUS_KEYS_FILE), previous);
  writeAtomically(keyFilePath(dataDir), [randomBytes(32)]);
  return keyringFromFile(dataDir);
}

export function keyringFromConfig(config: {
  dataDir: string;
  masterKey: Buffer | undefined;
  masterKeyPrevious: Buffer[];
}): Keyring {
  if (!config.masterKey) return keyringFromFile(config.dataDir);
  return new Keyring(toMasterKey(config.masterKey), config.masterKeyPrevious.map(toMasterKey));
}
