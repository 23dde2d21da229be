import { and, asc, eq, isNotNull, isNull } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { recordAudit } from "../../platform/audit/log.ts";
import type { Principal, Role } from "../../platform/auth/principal.ts";
import { hashToken } from "../../platform/auth/secrets.ts";
import { isUniqueViolation, type Tx } from "../../platform/db/index.ts";
import { AppError, conflict, forbidden, notFound } from "../../platform/http/errors.ts";
import { countUpTo, type Page, pageWindow } from "../../platform/http/pagination.ts";
import { newId, newSecret } from "../../platform/ids.ts";
import { requireAppRole } from "../apps/access.ts";
import { getApp, UNVERIFIED_OWNER } from "../apps/service.ts";
import { apps, members } from "../apps/tables.ts";
import { presentSummary } from "../users/presenters.ts";
import { requireUser } from "../users/service.ts";
import { users } from "../users/tables.ts";
import { INVITATION_JOB, type InvitationMail, sealInvitationToken } from "./jobs.ts";

type MemberRow = typeof members.$inferSelect;

// An invitation is a bearer link in someone's mailbox: a week is time enough to act on it, and
// short enough that an old mail found later opens nothing. A resend starts a new week.
const INVITATION_TTL_MS = 7 * 24 * 3600_000;
const invitationExpiry = (deps: Deps) => new Date(deps.now().getTime() + INVITATION_TTL_MS);
const EXPIRED = "This invitation expired: ask the app's owner to send it again";
type AppView = Awaited<ReturnType<typeof getApp>>;
type UserRow = Pick<typeof users.$inferSelect, "id" | "username" | "firstName" | "lastName">;

function present(member: MemberRow, user: UserRow | null, app: AppView, inviteToken: string | null = null) {
  return {
    id: member.id,
    user_id: member.userId,
    email: member.email,
    role: member.role,
    user: user ? presentSummary(user) : null,
    app,
    invite_token: inviteToken,
    invite_expires_at: member.inviteExpiresAt?.toISOString() ?? null,
    created_at: member.createdAt.toISOString(),
    updated_at: member.updatedAt.toISOString(),
  };
}

const userColumns = {
  id: users.id,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
};

async function loadMember(deps: Deps, appId: string, memberId: string) {
  const [row] = await deps.db
    .select({ member: members, user: userColumns })
    .from(members)
    .leftJoin(users, eq(users.id, members.userId))
    .where(and(eq(members.appId, appId), eq(members.id, memberId)));
  if (!row) throw notFound("Member");
  return row;
}

export async function listMembers(deps: Deps, actor: Principal, appId: string, page: Page) {
  await requireAppRole(deps.db, actor, appId, "view");
  const window = await pageWindow(deps.db, page, {
    table: members,
    createdAt: members.createdAt,
    id: members.id,
    scope: eq(members.appId, appId),
    newestFirst: true,
  });
  const [app, fetched, total] = await Promise.all([
    getApp(deps, actor, appId),
    deps.db
      .select({ member: members, user: userColumns })
      .from(members)
      .leftJoin(users, eq(users.id, members.userId))
      .where(and(eq(members.appId, appId), window.where))
      .orderBy(...window.orderBy)
      .limit(window.limit)
      .offset(window.offset),
    countUpTo(deps, members, eq(members.appId, appId)),
  ]);
  const { rows, neighbours } = window.finish(fetched, (r) => r.member.id);
  return { items: rows.map((r) => present(r.member, r.user, app)), total, neighbours };
}

export async function getMember(deps: Deps, actor: Principal, appId: string, memberId: string) {
  await requireAppRole(deps.db, actor, appId, "view");
  const [app, row] = await Promise.all([getApp(deps, actor, appId), loadMember(deps, appId, memberId)]);
  return present(row.member, row.user, app);
}

export async function inviteMember(deps: Deps, actor: Principal, appId: string, email: string, role: Role) {
  await requireAppRole(deps.db, actor, appId, "manage_members");
  const inviterId = requireUser(actor);
  const token = newSecret("inv_");
  const normalized = email.toLowerCase();
  try {
    const member = await deps.db.transaction(async (tx) => {
      const id = newId("mem");
      const [row] = await tx
        .insert(members)
        .values({
          id,
          appId,
          email: normalized,
          role,
          inviteTokenHash: hashToken(token),
          inviteTokenSealed: sealInvitationToken(deps.custody, id, token),
          inviteExpiresAt: invitationExpiry(deps),
        })
        .returning();
      const [[app], [inviter]] = await Promise.all([
        tx.select({ name: apps.name }).from(apps).where(eq(apps.id, appId)),
        tx.select({ username: users.username }).from(users).where(eq(users.id, inviterId)),
      ]);
      await deps.jobs.send<InvitationMail>(tx, INVITATION_JOB, {
        memberId: id,
        email: normalized,
        appId,
        appName: app.name,
        inviter: inviter.username,
        role,
      });
      await recordAudit(tx, actor, { appId, action: "member.invite", targetId: row.id });
      return row;
    });
    return present(member, null, await getApp(deps, actor, appId), token);
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict("This email is already a member of the app or invited to it");
    throw error;
  }
}

/**
 * What the invitation page shows to whoever holds the token (it came in the invitation mail):
 * the app, the role and the invited address. A used, withdrawn or unknown token is 404.
 */
export async function viewInvitation(deps: Deps, inviteToken: string) {
  const [row] = await deps.db
    .select({
      email: members.email,
      role: members.role,
      appName: apps.name,
      expiresAt: members.inviteExpiresAt,
    })
    .from(members)
    .innerJoin(apps, eq(apps.id, members.appId))
    .where(eq(members.inviteTokenHash, hashToken(inviteToken)));
  if (!row) throw notFound("Invitation");
  if (row.expiresAt && row.expiresAt <= deps.now()) throw new AppError("not_found", EXPIRED);
  return { email: row.email, role: row.role, appName: row.appName };
}

export async function acceptInvitation(deps: Deps, actor: Principal, inviteToken: string) {
  const userId = requireUser(actor);
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId));
  const [invite] = await deps.db
    .select()
    .from(members)
    .where(eq(members.inviteTokenHash, hashToken(inviteToken)));
  if (!invite) throw notFound("Invitation");
  if (invite.inviteExpiresAt && invite.inviteExpiresAt <= deps.now())
    throw new AppError("not_found", EXPIRED);
  // The token went to one mailbox; a forwarded token does not let another account in.
  if (invite.email !== user.email) throw forbidden("This invitation was sent to another email address");
  // The owner who invited also holds the token: the address must be proven by its own link, or
  // whoever registered the invitee's address first would join in their place (docs/accounts.md).
  if (!user.emailVerifiedAt) {
    throw forbidden(
      "Verify your email address first: open the link in the mail sent at sign-up (POST /auth/verify-email/resend sends it again)",
    );
  }
  try {
    const [accepted] = await deps.db.transaction(async (tx) => {
      const rows = await tx
        .update(members)
        .set({
          userId,
          acceptedAt: deps.now(),
          inviteTokenHash: null,
          inviteTokenSealed: null,
          inviteExpiresAt: null,
          updatedAt: deps.now(),
        })
        .where(and(eq(members.id, invite.id), eq(members.inviteTokenHash, hashToken(inviteToken))))
        .returning();
      if (rows[0]) {
        await recordAudit(tx, actor, { appId: invite.appId, action: "member.accept", targetId: invite.id });
      }
      return rows;
    });
    if (!accepted) throw notFound("Invitation");
    return present(accepted, user, await getApp(deps, actor, accepted.appId));
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("You are already a member of this app");
    throw error;
  }
}

/**
 * Locks the app's owner rows (in id order, the same order every caller uses, so two callers
 * cannot deadlock) and then the member's row. Holding the owner rows serialises two owners
 * demoting or removing each other at the same moment, so an app never ends with no owner.
 */
async function lockForOwnerChange(tx: Tx, appId: string, memberId: string) {
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
  if (!member) throw notFound("Member");
  const lastOwner = member.role === "owner" && !owners.some((o) => o.id !== memberId);
  return { member, lastOwner };
}

const LAST_OWNER = "An app must keep at least one owner";

export async function changeRole(deps: Deps, actor: Principal, appId: string, memberId: string, role: Role) {
  await requireAppRole(deps.db, actor, appId, "manage_members");
  await deps.db.transaction(async (tx) => {
    const { lastOwner, member } = await lockForOwnerChange(tx, appId, memberId);
    if (lastOwner && role !== "owner") throw new AppError("conflict", LAST_OWNER);
    if (role === "owner" && !deps.config.sandbox && member.userId) {
      const [user] = await tx
        .select({ verifiedAt: users.emailVerifiedAt })
        .from(users)
        .where(eq(users.id, member.userId));
      if (!user?.verifiedAt) throw forbidden(UNVERIFIED_OWNER);
    }
    await tx.update(members).set({ role, updatedAt: deps.now() }).where(eq(members.id, memberId));
    await recordAudit(tx, actor, { appId, action: `member.role.${role}`, targetId: memberId });
  });
  return getMember(deps, actor, appId, memberId);
}

export async function removeMember(deps: Deps, actor: Principal, appId: string, memberId: string) {
  await requireAppRole(deps.db, actor, appId, "manage_members");
  await deps.db.transaction(async (tx) => {
    const { lastOwner } = await lockForOwnerChange(tx, appId, memberId);
    if (lastOwner) throw new AppError("conflict", LAST_OWNER);
    await tx.delete(members).where(eq(members.id, memberId));
    await recordAudit(tx, actor, { appId, action: "member.remove", targetId: memberId });
  });
}

/**
 * Sends a pending invitation again (owner only): a new token (the old link stops working), a new
 * week, a new mail. Answers the member with the new token, once, as the invitation did.
 */
export async function resendInvitation(deps: Deps, actor: Principal, appId: string, memberId: string) {
  await requireAppRole(deps.db, actor, appId, "manage_members");
  const inviterId = requireUser(actor);
  const token = newSecret("inv_");
  const member = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(members)
      .set({
        inviteTokenHash: hashToken(token),
        // As at the invitation: the mail job reads the token sealed here, never from its own data.
        inviteTokenSealed: sealInvitationToken(deps.custody, memberId, token),
        inviteExpiresAt: invitationExpiry(deps),
        updatedAt: deps.now(),
      })
      .where(and(eq(members.appId, appId), eq(members.id, memberId), isNull(members.acceptedAt)))
      .returning();
    if (!row) {
      // Read in the transaction: on the embedded database another connection's read would wait
      // for this transaction, which waits for it.
      await loadMember({ ...deps, db: tx as unknown as Deps["db"] }, appId, memberId);
      throw conflict("This invitation was accepted already");
    }
    const [[app], [inviter]] = await Promise.all([
      tx.select({ name: apps.name }).from(apps).where(eq(apps.id, appId)),
      tx.select({ username: users.username }).from(users).where(eq(users.id, inviterId)),
    ]);
    await deps.jobs.send<InvitationMail>(tx, INVITATION_JOB, {
      memberId: row.id,
      email: row.email,
      appId,
      appName: app.name,
      inviter: inviter.username,
      role: row.role,
    });
    await recordAudit(tx, actor, { appId, action: "member.invite.resend", targetId: row.id });
    return row;
  });
  return present(member, null, await getApp(deps, actor, appId), token);
}
