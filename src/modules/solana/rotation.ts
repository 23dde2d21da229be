import type { Deps } from "../../deps.ts";
import { resealColumn } from "../../platform/crypto/reseal.ts";
import { envelopeColumn } from "../wallets/secrets.ts";
import { creationContext } from "./job-names.ts";
import { solanaCollections, solanaTrees } from "./tables.ts";

/**
 * Re-wraps the sealed secret key of every tree and collection account under the current master
 * key, for `npm run rotate-master-key`. A record still pending needs its key to (re-)send its
 * creating transaction, possibly long after a rotation; a confirmed one keeps it sealed all the
 * same, so none is left under a key that is about to be dropped.
 */
export async function rewrapSolanaSecrets(
  deps: Pick<Deps, "db" | "custody">,
  batchSize?: number,
): Promise<{ rewrapped: number }> {
  const trees = envelopeColumn(deps.db, solanaTrees, (id) => creationContext("tree", id));
  const collections = envelopeColumn(deps.db, solanaCollections, (id) => creationContext("collection", id));
  return {
    rewrapped:
      (await resealColumn(deps.custody, trees, batchSize)) +
      (await resealColumn(deps.custody, collections, batchSize)),
  };
}
