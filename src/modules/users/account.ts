import { and, eq, isNull, ne } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Revocation } from "../../platform/auth/cache.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { hashPassword, verifyPassword } from "../../platform/auth/secrets.ts";
import { isUniqueViolation, type Tx } from "../../platform/db/index.ts";
import { AppError, conflict, forbidden } from "../../platform/http/errors.ts";
import { consumeAccountToken, dropAccountTokens } from "./account-tokens.ts";
import { ACCOUNT_MAIL_JOB, type AccountMail } from "./jobs.ts";
import { requireUser, sendVerificationMail } from "./service.ts";
import { sessions, users } from "./tables.ts";

/**
 * Mails a reset link if an account has this address; answers the same either way (the route says
 * 202), so the answer reveals no account. Limited per client address and per email.
 */
export async function requestPasswordReset(deps: Deps, email: string, ip: string) {
  const normalized = email.toLowerCase();
  await deps.rateLimiter.hit("password_reset_per_ip", ip);
  await deps.rateLimiter.hit("password_reset_per_email", normalized);
  await deps.db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, normalized), eq(users.disabled, false)));
    if (!user) return;
    await deps.jobs.send<AccountMail>(tx, ACCOUNT_MAIL_JOB, { userId: user.id, kind: "password_reset" });
  });
}

const BAD_LINK = "This link is not valid: it was used, it expired, or it was never sent";

/**
 * Sets a new password with a reset link's token: the token is used up, every session of the
 * account ends (whoever had the old password is out), and the address it was mailed to counts
 * as verified if it is still the account's.
 */
export async function confirmPasswordReset(deps: Deps, token: string, password: string, ip: string) {
  await deps.rateLimiter.hit("password_reset_per_ip", ip);
  const passwordHash = await hashPassword(password, deps.config.passwordHashCost);
  const now = deps.now();
  const revocation = await deps.db.transaction(async (tx) => {
    const used = await consumeAccountToken(tx, now, token, "password_reset");
    if (!used)
      throw new AppError("validation_failed", BAD_LINK, {
        errors: [{ path: "/body/token", message: BAD_LINK }],
      });
    await dropAccountTokens(tx, used.userId, "password_reset");
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, used.userId));
    await tx
      .update(users)
      .set({ emailVerifiedAt: now })
      .where(
        and(eq(users.id, used.userId), isNull(users.emailVerifiedAt), eq(users.email, used.email ?? "")),
      );
    return endSessions(deps, tx, used.userId);
  });
  deps.revocations.forget(revocation);
}

/**
 * Ends every session of the user but `except`, in `tx`, and tells the other processes' caches
 * when it commits; answers the revocation for the caller to `forget` here once it has.
 */
export async function endSessions(deps: Deps, tx: Tx, userId: string, except?: string): Promise<Revocation> {
  await tx
    .delete(sessions)
    .where(except ? and(eq(sessions.userId, userId), ne(sessions.id, except)) : eq(sessions.userId, userId));
  const revocation = { userId, exceptSessionId: except };
  await deps.revocations.publish(tx, revocation);
  return revocation;
}

/** Checks the caller's password, with the log-in's back-off per account against guessing. */
async function checkPassword(deps: Deps, userId: string, password: string) {
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId));
  const account = `login:${user.email}`;
  await deps.rateLimiter.checkBackoff(account);
  if (!(await verifyPassword(password, user.passwordHash))) {
    await deps.rateLimiter.recordFailure(account);
    throw new AppError("validation_failed", "The current password is wrong", {
      errors: [{ path: "/body/current_password", message: "is not the account's password" }],
    });
  }
  return user;
}

/** A new password for the signed-in user, who proves the current one; every other session ends. */
export async function changePassword(deps: Deps, actor: Principal, current: string, next: string) {
  const userId = requireUser(actor);
  if (actor.kind !== "user") throw forbidden("A user session is needed");
  await checkPassword(deps, userId, current);
  const passwordHash = await hashPassword(next, deps.config.passwordHashCost);
  const revocation = await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: deps.now() }).where(eq(users.id, userId));
    await dropAccountTokens(tx, userId, "password_reset");
    return endSessions(deps, tx, userId, actor.sessionId);
  });
  deps.revocations.forget(revocation);
}

/** Marks the address a verification link was mailed to as the account's own, if it still is. */
export async function verifyEmail(deps: Deps, token: string) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const used = await consumeAccountToken(tx, now, token, "email_verification");
    const [user] = used
      ? await tx
          .update(users)
          .set({ emailVerifiedAt: now, updatedAt: now })
          .where(and(eq(users.id, used.userId), eq(users.email, used.email ?? "")))
          .returning({ id: users.id })
      : [];
    if (!user)
      throw new AppError("validation_failed", BAD_LINK, {
        errors: [{ path: "/body/token", message: BAD_LINK }],
      });
  });
}

/** Sends the verification link again (at most `verification_mail_per_user` an hour). */
export async function resendVerification(deps: Deps, actor: Principal) {
  const userId = requireUser(actor);
  await deps.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId));
    if (user.emailVerifiedAt) throw conflict("This address is verified already");
    await deps.rateLimiter.hit("verification_mail_per_user", userId, tx);
    await sendVerificationMail(deps, tx, userId, user.email);
  });
}

export interface ProfileChange {
  email?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
  current_password?: string;
}

/**
 * Changes the caller's profile. A new email needs the current password (a stolen session must not
 * move the account to another mailbox, where a reset would then go), is unverified until its link
 * is used, and the former address is told.
 */
export async function updateProfile(deps: Deps, actor: Principal, change: ProfileChange) {
  const userId = requireUser(actor);
  const [current] = await deps.db.select().from(users).where(eq(users.id, userId));
  const email = change.email?.toLowerCase();
  const newEmail = email !== undefined && email !== current.email;
  if (newEmail) {
    if (change.current_password === undefined) {
      throw new AppError("validation_failed", "Changing the email needs the current password", {
        errors: [{ path: "/body/current_password", message: "is required to change the email" }],
      });
    }
    await checkPassword(deps, userId, change.current_password);
  }
  try {
    return await deps.db.transaction(async (tx) => {
      const [user] = await tx
        .update(users)
        .set({
          ...(newEmail ? { email, emailVerifiedAt: null } : {}),
          ...(change.username === undefined ? {} : { username: change.username }),
          ...(change.first_name === undefined ? {} : { firstName: change.first_name }),
          ...(change.last_name === undefined ? {} : { lastName: change.last_name }),
          updatedAt: deps.now(),
        })
        .where(eq(users.id, userId))
        .returning();
      if (newEmail && email) {
        await dropAccountTokens(tx, userId, "email_verification");
        await sendVerificationMail(deps, tx, userId, email);
        await deps.jobs.send<AccountMail>(tx, ACCOUNT_MAIL_JOB, {
          userId,
          kind: "email_changed",
          email: current.email,
        });
      }
      return user;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict("A user with this email or username already exists");
    throw error;
  }
}
