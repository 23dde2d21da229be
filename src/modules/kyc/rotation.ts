import { eq } from "drizzle-orm";
import type { Keyring } from "../../platform/crypto/keyring.ts";
import { seal, unsealWithAny } from "../../platform/crypto/sealed.ts";
import { type Database, drizzleRunner } from "../../platform/db/index.ts";
import { KYC_ACTION_JOB } from "./jobs.ts";
import { kycs } from "./tables.ts";

const context = (kycId: string) => `kyc:${kycId}`;

/**
 * Re-seals every KYC edit token under the current master key, for `npm run rotate-master-key`:
 * once it has run, the former key can leave SECRETS_MASTER_KEY_PREVIOUS. Rows already under the
 * current key, and rows changed meanwhile (a refreshed token is sealed under the current key), are
 * left alone.
 */
export async function resealKycTokens(db: Database, keyring: Keyring): Promise<{ resealed: number }> {
  let resealed = 0;
  for (const row of await db.select({ id: kycs.id, sealed: kycs.editTokenSealed }).from(kycs)) {
    const opened = unsealWithAny(keyring, row.sealed, context(row.id));
    if (opened.current) continue;
    const updated = await db
      .update(kycs)
      .set({ editTokenSealed: seal(keyring.current.key, opened.plaintext, context(row.id)) })
      .where(eq(kycs.editTokenSealed, row.sealed))
      .returning({ id: kycs.id });
    resealed += updated.length;
  }
  return { resealed };
}

/**
 * Re-seals the widget inputs of KYC jobs still waiting or retrying (their payload is sealed, since
 * job rows are stored in clear): a job queued before a rotation must still open its input after
 * the former key is dropped. The job rows are pg-boss's own; only the `sealed` field changes, and
 * only if it is still the value read.
 */
export async function resealKycJobInputs(db: Database, keyring: Keyring): Promise<{ resealed: number }> {
  const run = drizzleRunner(db);
  const [queue] = await run("select to_regclass('pgboss.job') is not null as present", []);
  if (!queue?.present) return { resealed: 0 };
  const jobs = await run(
    `select id::text as id, data->>'kycId' as kyc_id, data->>'sealed' as sealed from pgboss.job
     where name = $1 and state in ('created', 'retry', 'active') and data->>'sealed' is not null`,
    [KYC_ACTION_JOB],
  );
  let resealed = 0;
  for (const job of jobs as { id: string; kyc_id: string; sealed: string }[]) {
    const opened = unsealWithAny(keyring, job.sealed, context(job.kyc_id));
    if (opened.current) continue;
    const updated = await run(
      `update pgboss.job set data = jsonb_set(data, '{sealed}', to_jsonb($1::text))
       where name = $2 and id = $3::uuid and data->>'sealed' = $4 returning id`,
      [seal(keyring.current.key, opened.plaintext, context(job.kyc_id)), KYC_ACTION_JOB, job.id, job.sealed],
    );
    resealed += updated.length;
  }
  return { resealed };
}
