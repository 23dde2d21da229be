import { eq, ne, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { ConfigError } from "../../config/parse.ts";
import type { Database } from "../db/index.ts";
import type { Custody } from "./custody.ts";
import type { Keyring } from "./keyring.ts";
import { masterKeys } from "./master-key-table.ts";

/** The channel `npm run rotate-master-key` notifies on when it names a new sealing key. */
export const MASTER_KEYS_CHANNEL = "master_keys_changed";

// Taken for the check-and-record at start-up, so two processes starting together on an empty
// database cannot both record their own key: the second sees the first's.
const LOCK = sql`select pg_advisory_xact_lock(hashtext('master_keys'))`;

function whereFrom(custody: Custody): string {
  return custody.fromKeyFile
    ? "DATA_DIR/master.key, because SECRETS_MASTER_KEY is not set"
    : "SECRETS_MASTER_KEY and SECRETS_MASTER_KEY_PREVIOUS";
}

/**
 * Start-up's check: the database holds secrets only under the keys recorded in `master_keys`, and
 * this process must hold every one, or it would answer 500 on every read of them. It refuses to
 * start instead, naming the setting. An empty record (a new database) takes this process's key.
 * Afterwards the process seals with the key the record names.
 */
export async function checkMasterKeys(db: Database, custody: Custody): Promise<void> {
  const sealingId = await db.transaction(async (tx) => {
    await tx.execute(LOCK);
    const rows = await tx.select().from(masterKeys);
    if (rows.length === 0) {
      const id = custody.keyring.current.id;
      await tx.insert(masterKeys).values({ id, sealing: true });
      return id;
    }
    let missing = rows.filter((row) => !custody.keyring.get(row.id));
    // A key file rotated since this process read it (or read by a process started earlier).
    if (missing.length > 0 && custody.reload(true))
      missing = rows.filter((row) => !custody.keyring.get(row.id));
    if (missing.length > 0) {
      throw new ConfigError(
        "SECRETS_MASTER_KEY",
        `the database holds secrets sealed by master key ${missing.map((r) => r.id).join(", ")}, which this ` +
          `process does not have (its keys, from ${whereFrom(custody)}: ${custody.keyring.ids.join(", ")}). ` +
          "Give every process sharing a database the same SECRETS_MASTER_KEY (and, during a rotation, the " +
          "former key in SECRETS_MASTER_KEY_PREVIOUS); docs/custody.md",
      );
    }
    const sealing = rows.find((row) => row.sealing);
    if (sealing) return sealing.id;
    const id = custody.keyring.current.id;
    await tx.update(masterKeys).set({ sealing: true }).where(eq(masterKeys.id, id));
    return id;
  });
  custody.sealWith(sealingId);
}

/** Reads which key seals now (after a NOTIFY on MASTER_KEYS_CHANNEL, or a lost listener regained). */
export async function refreshSealingKey(db: Database, custody: Custody, logger: Logger): Promise<void> {
  const [sealing] = await db.select().from(masterKeys).where(eq(masterKeys.sealing, true));
  if (!sealing) return;
  custody.sealWith(sealing.id);
  if (!custody.keyring.get(sealing.id)) {
    // Deployed without the new key: this process keeps sealing with its own, which others can open
    // until the former key is retired. The operator rotated before deploying (docs/custody.md).
    logger.error(
      { master_key: sealing.id },
      "the database now seals with a master key this process does not have: set SECRETS_MASTER_KEY",
    );
  }
}

/**
 * The rotation's first half: `keyring.current` becomes the sealing key, every key recorded before
 * is kept (values under them are still to be moved), and every process is told at once.
 * Refuses when the database holds a key the keyring lacks: those values could not be moved.
 */
export async function startSealingWith(db: Database, keyring: Keyring): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(LOCK);
    const rows = await tx.select().from(masterKeys);
    const missing = rows.filter((row) => !keyring.get(row.id));
    if (missing.length > 0) {
      throw new ConfigError(
        "SECRETS_MASTER_KEY_PREVIOUS",
        `the database holds secrets sealed by master key ${missing.map((r) => r.id).join(", ")}, which is ` +
          "neither SECRETS_MASTER_KEY nor in SECRETS_MASTER_KEY_PREVIOUS: nothing was changed",
      );
    }
    await tx.update(masterKeys).set({ sealing: false }).where(ne(masterKeys.id, keyring.current.id));
    await tx
      .insert(masterKeys)
      .values({ id: keyring.current.id, sealing: true })
      .onConflictDoUpdate({ target: masterKeys.id, set: { sealing: true } });
    await tx.execute(sql`select pg_notify(${MASTER_KEYS_CHANNEL}, ${keyring.current.id})`);
  });
}

/** The rotation's last step, once nothing is left under a former key: only the current one is recorded. */
export async function retireFormerKeys(db: Database, keyring: Keyring): Promise<string[]> {
  const gone = await db
    .delete(masterKeys)
    .where(ne(masterKeys.id, keyring.current.id))
    .returning({ id: masterKeys.id });
  return gone.map((row) => row.id);
}
