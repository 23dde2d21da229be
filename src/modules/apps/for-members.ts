import { and, asc, eq, gt, isNotNull, isNull } from "drizzle-orm";
import type { Role } from "../../platform/auth/principal.ts";
import type { Executor, Tx } from "../../platform/db/index.ts";
import { type Page, pageOfSelect } from "../../platform/http/pagination.ts";
import { userJoin } from "../users/queries.ts";
import { apps, members } from "./tables.ts";

/*
 * The members table, as the members module (invitations, roles) reads and writes it: apps owns
 * the table, because every module's access check reads it (access.ts), and the members module,
 * built on apps, goes through these functions (test/platform/layers.test.ts). Each is the one
 * statement the members module ran before; the rules (who may, expiry, the last owner) stay there.
 */

export type MemberRow = typeof members.$inferSelect;
export type NewMember = typeof members.$inferInsert;

/** A member's user, left-joined: null while the invitation is pending. */
const user = userJoin(members.userId);
const withUser = { member: members, user: user.summary };

/** Member `memberId` of app `appId` with its user, or undefined. */
export async function findMember(db: Executor, appId: string, memberId: string) {
  const [row] = await db
    .select(withUser)
    .from(members)
    .leftJoin(user.table, user.on)
    .where(and(eq(members.appId, appId), eq(members.id, memberId)));
  return row;
}

/** The page `page` of app `appId`'s members, newest first, each with its user, and their count. */
export async function pageOfMembers(
  deps: { db: Executor; config: { listCountCap: number } },
  appId: string,
  page: Page,
) {
  return pageOfSelect(
    deps,
    page,
    { table: members, scope: eq(members.appId, appId), newestFirst: true },
    deps.db.select(withUser).from(members).leftJoin(user.table, user.on).$dynamic(),
    (r) => r.member.id,
  );
}

/** Adds an invited member (a unique violation: that address is a member or invited already). */
export async function insertMember(tx: Tx, member: NewMember): Promise<MemberRow> {
  const [row] = await tx.insert(members).values(member).returning();
  return row;
}

/** App `appId`'s name, for the invitation mail. */
export async function appName(tx: Tx, appId: string): Promise<string> {
  const [app] = await tx.select({ name: apps.name }).from(apps).where(eq(apps.id, appId));
  return app.name;
}

/** What the invitation page shows of the invitation whose token hashes to `tokenHash`. */
export async function invitationByToken(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({
      email: members.email,
      role: members.role,
      appId: members.appId,
      appName: apps.name,
      expiresAt: members.inviteExpiresAt,
    })
    .from(members)
    .innerJoin(apps, eq(apps.id, members.appId))
    .where(eq(members.inviteTokenHash, tokenHash));
  return row;
}

/** The pending member whose invitation token hashes to `tokenHash`, or undefined. */
export async function memberByInvitation(db: Executor, tokenHash: string): Promise<MemberRow | undefined> {
  const [row] = await db.select().from(members).where(eq(members.inviteTokenHash, tokenHash));
  return row;
}

/**
 * User `userId` accepts invitation `memberId`, only while its token is still `tokenHash` (else
 * undefined: used or replaced meanwhile); the token and its sealed copy are dropped.
 */
export async function acceptMembership(
  tx: Tx,
  invitation: { memberId: string; tokenHash: string; userId: string; now: Date },
): Promise<MemberRow | undefined> {
  const [row] = await tx
    .update(members)
    .set({
      userId: invitation.userId,
      acceptedAt: invitation.now,
      inviteTokenHash: null,
      inviteTokenSealed: null,
      inviteExpiresAt: null,
      updatedAt: invitation.now,
    })
    .where(and(eq(members.id, invitation.memberId), eq(members.inviteTokenHash, invitation.tokenHash)))
    .returning();
  return row;
}

/**
 * Locks app `appId`'s owner rows (in id order, the same order every caller uses, so two callers
 * cannot deadlock) and then member `memberId`'s row (undefined: no such member of the app).
 */
export async function lockOwnersAndMember(tx: Tx, appId: string, memberId: string) {
  const owners = await tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.appId, appId), eq(members.role, "owner"), isNotNull(members.acceptedAt)))
    .orderBy(asc(members.id))
    .for("update");
  const [member] = await tx
    .select()
    .from(members)
    .where(and(eq(members.appId, appId), eq(members.id, memberId)))
    .for("update");
  return { owners, member: member as MemberRow | undefined };
}

export async function setMemberRole(tx: Tx, memberId: string, role: Role, now: Date) {
  await tx.update(members).set({ role, updatedAt: now }).where(eq(members.id, memberId));
}

export async function deleteMember(tx: Tx, memberId: string) {
  await tx.delete(members).where(eq(members.id, memberId));
}

/**
 * A new token for app `appId`'s pending invitation `memberId` (its hash, its sealed copy for the
 * mail, its expiry); undefined when no pending invitation has that id (accepted, or none).
 */
export async function renewInvitation(
  tx: Tx,
  appId: string,
  memberId: string,
  token: { hash: string; sealed: string; expiresAt: Date; now: Date },
): Promise<MemberRow | undefined> {
  const [row] = await tx
    .update(members)
    .set({
      inviteTokenHash: token.hash,
      inviteTokenSealed: token.sealed,
      inviteExpiresAt: token.expiresAt,
      updatedAt: token.now,
    })
    .where(and(eq(members.appId, appId), eq(members.id, memberId), isNull(members.acceptedAt)))
    .returning();
  return row;
}

/** Member `memberId`'s sealed invitation token, while it waits for its mail (else null or undefined). */
export async function sealedInvitationToken(db: Executor, memberId: string) {
  const [row] = await db
    .select({ sealed: members.inviteTokenSealed })
    .from(members)
    .where(eq(members.id, memberId));
  return row?.sealed;
}

/** Drops member `memberId`'s sealed token once mailed, only while it is still `sealed`. */
export async function dropSealedInvitationToken(db: Executor, memberId: string, sealed: string) {
  await db
    .update(members)
    .set({ inviteTokenSealed: null })
    .where(and(eq(members.id, memberId), eq(members.inviteTokenSealed, sealed)));
}

/**
 * Replaces member `memberId`'s sealed token by `next` (a re-seal) only while it is still
 * `sealed`; whether it was.
 */
export async function replaceSealedInvitationToken(
  db: Executor,
  memberId: string,
  sealed: string,
  next: string,
): Promise<boolean> {
  const updated = await db
    .update(members)
    .set({ inviteTokenSealed: next })
    .where(and(eq(members.id, memberId), eq(members.inviteTokenSealed, sealed)))
    .returning({ id: members.id });
  return updated.length > 0;
}

/** Up to `limit` sealed invitation tokens of members after `after` (id order), for a re-seal. */
export async function sealedInvitationTokens(db: Executor, after: string, limit: number) {
  return db
    .select({ id: members.id, sealed: members.inviteTokenSealed })
    .from(members)
    .where(and(gt(members.id, after), isNotNull(members.inviteTokenSealed)))
    .orderBy(asc(members.id))
    .limit(limit);
}
