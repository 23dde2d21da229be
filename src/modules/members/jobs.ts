import type { Deps } from "../../deps.ts";
import type { Custody } from "../../platform/crypto/custody.ts";
import { resealColumn, type SealedColumn } from "../../platform/crypto/reseal.ts";
import type { JobDefinition } from "../../platform/jobs/index.ts";
import {
  dropSealedInvitationToken,
  replaceSealedInvitationToken,
  sealedInvitationToken,
  sealedInvitationTokens,
} from "../apps/for-members.ts";

export interface InvitationMail {
  /** The member the invitation is for; its token is read, sealed, from the member's row. */
  memberId?: string;
  email: string;
  /** Absent on jobs queued before the sandbox inbox knew which app a mail is about. */
  appId?: string;
  appName: string;
  inviter: string;
  role: string;
  /** Only on jobs queued before tokens were kept out of job data (they expire with the queue). */
  token?: string;
}

export const INVITATION_JOB = "members.send-invitation";

const tokenContext = (memberId: string) => `invitation:${memberId}`;

export function sealInvitationToken(custody: Custody, memberId: string, token: string): string {
  return custody.sealText(tokenContext(memberId), token);
}

/** The hosted page an invitation mail links to (`GET /invitations/{invite_token}`). */
function invitationUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/invitations/${encodeURIComponent(token)}`;
}

/** The token still waiting for its mail (and its sealed form); undefined once accepted, withdrawn or mailed. */
async function waitingToken(
  deps: Pick<Deps, "db" | "custody">,
  memberId: string,
): Promise<{ token: string; sealed: string } | undefined> {
  const sealed = await sealedInvitationToken(deps.db, memberId);
  if (!sealed) return undefined;
  return { token: deps.custody.openText(tokenContext(memberId), sealed), sealed };
}

/**
 * Sends the invitation mail; enqueued in the transaction that creates the member. The job's data
 * names the member; the token is opened from the member's row and dropped from it once mailed, so
 * neither the queue (which keeps finished jobs for days) nor the table keeps it readable.
 */
export function invitationJob(
  deps: Pick<Deps, "mailer" | "config" | "db" | "custody">,
): JobDefinition<InvitationMail> {
  return {
    name: INVITATION_JOB,
    retryLimit: 10,
    async handle(data) {
      const waiting = data.memberId ? await waitingToken(deps, data.memberId) : undefined;
      const token = data.token ?? waiting?.token;
      if (!token) return; // accepted or withdrawn before the mail went, or a retry after it went
      await deps.mailer.send({
        to: data.email,
        appId: data.appId,
        subject: `${data.inviter} invited you to ${data.appName}`,
        text:
          `${data.inviter} invited you to the app "${data.appName}" as ${data.role}.\n\n` +
          `Accept the invitation here:\n${invitationUrl(deps.config.publicUrl, token)}\n\n` +
          `On that page, sign in with this address (${data.email}), or create an account with it, ` +
          `and accept. The link works once, and only for an account with this address.\n\n` +
          `From a program instead: sign in as that account and call\n` +
          `POST ${deps.config.publicUrl}/members/accept {"invite_token": "${token}"}\n`,
      });
      if (data.memberId && waiting) {
        // Only the token this mail carried: a resend may have sealed a newer one meanwhile, which
        // its own job is about to mail.
        await dropSealedInvitationToken(deps.db, data.memberId, waiting.sealed);
      }
    },
  };
}

function invitationTokens(db: Deps["db"]): SealedColumn {
  return {
    async page(after, limit) {
      const rows = await sealedInvitationTokens(db, after, limit);
      return rows.map((row) => ({ key: row.id, context: tokenContext(row.id), sealed: row.sealed! }));
    },
    async replace(value, next) {
      return replaceSealedInvitationToken(db, value.key, value.sealed, next);
    },
  };
}

/** Re-seals the invitation tokens still waiting for their mail, for `npm run rotate-master-key`. */
export async function resealInvitationTokens(deps: Pick<Deps, "db" | "custody">): Promise<number> {
  return resealColumn(deps.custody, invitationTokens(deps.db));
}
