import type { Principal } from "../auth/principal.ts";
import type { Executor } from "../db/index.ts";
import { newId } from "../ids.ts";
import { auditEvents } from "./table.ts";

/** One change to an app: what was done (`api_key.create`, `payment.refund`…) and to which record. */
export interface AuditEntry {
  appId: string;
  action: string;
  targetId?: string | null;
}

/**
 * Records a change in the audit log, in the transaction `db` that makes the change: the row
 * commits with the change or not at all, so the log never names a change that did not happen nor
 * misses one that did. Who, with which credential and from where come from the actor.
 */
export async function recordAudit(db: Executor, actor: Principal, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    id: newId("aud"),
    appId: entry.appId,
    actorType: actor.kind,
    actorId: actor.kind === "user" ? actor.userId : actor.keyId,
    credentialId: actor.kind === "user" ? actor.sessionId : actor.keyId,
    action: entry.action,
    targetId: entry.targetId ?? null,
    ip: actor.ip ?? null,
  });
}

/**
 * Records, in every app named, a change made by an operator's command rather than by a member or
 * a key (the master-key rotation): the actor is `operator`, its id the OS account and host the
 * command ran as, and the credential the thing that authorised it (the new key's fingerprint id).
 */
export async function recordOperatorAudit(
  db: Executor,
  appIds: readonly string[],
  entry: { action: string; operator: string; credentialId: string; targetId: string },
): Promise<void> {
  if (appIds.length === 0) return;
  await db.insert(auditEvents).values(
    appIds.map((appId) => ({
      id: newId("aud"),
      appId,
      actorType: "operator" as const,
      actorId: entry.operator,
      credentialId: entry.credentialId,
      action: entry.action,
      targetId: entry.targetId,
      ip: null,
    })),
  );
}
