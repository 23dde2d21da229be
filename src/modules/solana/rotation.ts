import { and, asc, eq, gt, ne } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { envelopeColumns, envelopeOf } from "../wallets/secrets.ts";
import { type CreationKind, creationContext } from "./job-names.ts";
import { solanaCollections, solanaTrees } from "./tables.ts";

/**
 * Re-wraps the sealed secret key of every tree and collection account under the current master
 * key, for `npm run rotate-master-key`. A record still pending needs its key to (re-)send its
 * creating transaction, possibly long after a rotation; a confirmed one keeps it sealed all the
 * same, so none is left under a key that is about to be dropped. Each row is updated only if it
 * still carries the envelope that was read; safe to run again after an interruption.
 */
export async function rewrapSolanaSecrets(
  deps: Pick<Deps, "db" | "custody">,
  batchSize = 200,
): Promise<{ rewrapped: number }> {
  let rewrapped = 0;
  for (const [kind, table] of [
    ["tree", solanaTrees],
    ["collection", solanaCollections],
  ] as const) {
    rewrapped += await rewrapTable(deps, kind, table, batchSize);
  }
  return { rewrapped };
}

async function rewrapTable(
  deps: Pick<Deps, "db" | "custody">,
  kind: CreationKind,
  table: typeof solanaTrees | typeof solanaCollections,
  batchSize: number,
): Promise<number> {
  const current = deps.custody.keyring.current.id;
  let rewrapped = 0;
  let after = "";
  for (;;) {
    const rows = await deps.db
      .select({
        id: table.id,
        secretKeyId: table.secretKeyId,
        secretWrappedKey: table.secretWrappedKey,
        secretCiphertext: table.secretCiphertext,
      })
      .from(table)
      .where(and(ne(table.secretKeyId, current), gt(table.id, after)))
      .orderBy(asc(table.id))
      .limit(batchSize);
    if (rows.length === 0) return rewrapped;
    for (const row of rows) {
      const next = deps.custody.rewrap(creationContext(kind, row.id), envelopeOf(row));
      if (!next) continue;
      const updated = await deps.db
        .update(table)
        .set(envelopeColumns(next))
        .where(and(eq(table.id, row.id), eq(table.secretWrappedKey, row.secretWrappedKey)))
        .returning({ id: table.id });
      rewrapped += updated.length;
    }
    after = rows[rows.length - 1].id;
  }
}
