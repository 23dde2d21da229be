import { sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { resealColumn, type SealedColumn, sealedTextColumn } from "../../platform/crypto/reseal.ts";
import { drizzleRunner } from "../../platform/db/index.ts";
import { KYC_ACTION_JOB } from "./jobs.ts";
import { kycContext } from "./sealing.ts";
import { kycs } from "./tables.ts";

type RotationDeps = Pick<Deps, "db" | "custody">;

/**
 * The widget inputs of KYC jobs still waiting, running or retrying (their payload is sealed, since
 * job rows are stored in clear): a job queued before a rotation must still open its input after
 * the former key is dropped. The job rows are pg-boss's own; only the `sealed` field changes, and
 * only if it is still the value read.
 */
function queuedInputs(db: Deps["db"]): SealedColumn {
  const run = drizzleRunner(db);
  return {
    async page(after, limit) {
      const jobs = await run(
        sql`select id::text as id, data->>'kycId' as kyc_id, data->>'sealed' as sealed from pgboss.job
         where name = ${KYC_ACTION_JOB} and state in ('created', 'retry', 'active')
           and data->>'sealed' is not null and id::text > ${after}
         order by id::text limit ${sql.raw(String(Number(limit)))}`,
      );
      return (jobs as { id: string; kyc_id: string; sealed: string }[]).map((job) => ({
        key: job.id,
        context: kycContext(job.kyc_id),
        sealed: job.sealed,
      }));
    },
    async replace(value, next) {
      const updated = await run(
        sql`update pgboss.job set data = jsonb_set(data, '{sealed}', to_jsonb(${next}::text))
         where name = ${KYC_ACTION_JOB} and id = ${value.key}::uuid and data->>'sealed' = ${value.sealed}
         returning id`,
      );
      return updated.length > 0;
    },
  };
}

/** Re-seals every KYC edit token under the current master key, for `npm run rotate-master-key`. */
export async function resealKycTokens(deps: RotationDeps): Promise<{ resealed: number }> {
  return {
    resealed: await resealColumn(
      deps.custody,
      sealedTextColumn(deps.db, kycs, "editTokenSealed", kycContext),
    ),
  };
}

/** Re-seals the inputs of KYC jobs not yet done (`queuedInputs`); nothing before the queue exists. */
export async function resealKycJobInputs(deps: RotationDeps): Promise<{ resealed: number }> {
  const [queue] = await drizzleRunner(deps.db)(sql`select to_regclass('pgboss.job') is not null as present`);
  if (!queue?.present) return { resealed: 0 };
  return { resealed: await resealColumn(deps.custody, queuedInputs(deps.db)) };
}
