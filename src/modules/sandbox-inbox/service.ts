import { and, eq, inArray, lt, or, type SQL } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { resealColumn, sealedTextColumn } from "../../platform/crypto/reseal.ts";
import type { Database } from "../../platform/db/index.ts";
import { type Page, pageOfRows } from "../../platform/http/pagination.ts";
import type { JobDefinition } from "../../platform/jobs/index.ts";
import { appIdsOwnedBy } from "../apps/queries.ts";
import { emailOf } from "../users/queries.ts";
import { requireUser } from "../users/service.ts";
import { mailContext, openMailText } from "./store.ts";
import { sandboxMails } from "./tables.ts";

type MailRow = typeof sandboxMails.$inferSelect;

function present(deps: Pick<Deps, "custody">, row: MailRow) {
  return {
    id: row.id,
    to: row.recipient,
    subject: row.subject,
    text: openMailText(deps.custody, row),
    app_id: row.appId,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * The mails a signed-in user may read: those sent to their own address, and those about apps
 * they own (the invitations they sent, their auctions' sign-in codes). A developer member reads
 * only their own mail: invitations are an owner's business, as the invite token answer is.
 */
function readableBy(db: Database, userId: string, email: string): SQL {
  return or(eq(sandboxMails.recipient, email), inArray(sandboxMails.appId, appIdsOwnedBy(db, userId))) as SQL;
}

/** The caller's sandbox inbox, newest first; `to` narrows it to one recipient. */
export async function listMails(deps: Deps, actor: Principal, page: Page, to?: string) {
  const userId = requireUser(actor);
  const email = await emailOf(deps.db, userId);
  const where = and(
    readableBy(deps.db, userId, email),
    to ? eq(sandboxMails.recipient, to.toLowerCase()) : undefined,
  );
  const { rows, total, neighbours } = await pageOfRows(deps, page, {
    table: sandboxMails,
    scope: where,
    newestFirst: true,
  });
  return { items: rows.map((row) => present(deps, row)), total, neighbours };
}

const PRUNE_SANDBOX_MAIL_JOB = "sandbox.prune-mail";

/** Drops mails older than SANDBOX_MAIL_RETENTION_HOURS, hourly (sandbox mode only). */
export function pruneSandboxMailJob(deps: Pick<Deps, "db" | "config" | "now">): JobDefinition<object> {
  return {
    name: PRUNE_SANDBOX_MAIL_JOB,
    schedule: "41 * * * *",
    async handle() {
      const cutoff = new Date(deps.now().getTime() - deps.config.sandboxMailRetentionHours * 3600_000);
      await deps.db.delete(sandboxMails).where(lt(sandboxMails.createdAt, cutoff));
    },
  };
}

/** Re-seals every stored sandbox mail under the current master key, for `npm run rotate-master-key`. */
export async function resealSandboxMails(deps: Pick<Deps, "db" | "custody">): Promise<{ resealed: number }> {
  return {
    resealed: await resealColumn(
      deps.custody,
      sealedTextColumn(deps.db, sandboxMails, "textSealed", mailContext),
    ),
  };
}
