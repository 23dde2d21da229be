import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull, lt, or } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { hashToken, verifyPassword } from "../../platform/auth/secrets.ts";
import { resealColumn, sealedTextColumn } from "../../platform/crypto/reseal.ts";
import type { Executor } from "../../platform/db/index.ts";
import { AppError, conflict, forbidden } from "../../platform/http/errors.ts";
import { newId } from "../../platform/ids.ts";
import { endSessions } from "./account.ts";
import { type Client, openSession } from "./service.ts";
import { accountTokens, recoveryCodes, users } from "./tables.ts";

// RFC 6238 as every authenticator app reads it: SHA-1, six digits, 30-second steps. One step of
// clock drift either way is accepted; each step's code is accepted once (`totp_last_step`).
const PERIOD = 30;
const DRIFT_STEPS = 1;
const RECOVERY_CODES = 10;

/** Bound into each sealed TOTP secret, so a secret copied to another account's row does not open. */
const totpContext = (userId: string) => `totp:${userId}`;

function totpOf(deps: Pick<Deps, "config">, secret: string, email: string) {
  return new TOTP({
    issuer: new URL(deps.config.publicUrl).host,
    label: email,
    secret: Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: 6,
    period: PERIOD,
  });
}

function sessionUser(actor: Principal) {
  if (actor.kind !== "user") throw forbidden("This endpoint needs a user session, not an API key");
  return actor;
}

async function loadUser(db: Executor, userId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  return user;
}

/**
 * Starts set-up: a new secret, sealed, waiting for a first code (`enableTwoFactor`). Answers the
 * secret and its `otpauth://` URL (for a QR code) this once. Refused while two-factor is on.
 */
export async function beginTwoFactor(deps: Deps, actor: Principal) {
  const { userId } = sessionUser(actor);
  const user = await loadUser(deps.db, userId);
  if (user.totpEnabledAt) throw conflict("Two-factor log-in is on already: turn it off first to start again");
  const secret = new Secret({ size: 20 }).base32;
  await deps.db
    .update(users)
    .set({ totpSecretSealed: deps.custody.sealText(totpContext(userId), secret), totpLastStep: null })
    .where(eq(users.id, userId));
  return { secret, otpauth_url: totpOf(deps, secret, user.email).toString() };
}

/**
 * Whether `code` is the user's current TOTP code, used at most once: the step it belongs to is
 * recorded in the same statement that checks no later step was used.
 */
async function acceptTotp(deps: Deps, db: Executor, user: typeof users.$inferSelect, code: string) {
  if (!user.totpSecretSealed || !/^\d{6}$/.test(code)) return false;
  const secret = deps.custody.openText(totpContext(user.id), user.totpSecretSealed);
  const now = deps.now().getTime();
  const delta = totpOf(deps, secret, user.email).validate({
    token: code,
    timestamp: now,
    window: DRIFT_STEPS,
  });
  if (delta === null) return false;
  const step = Math.floor(now / 1000 / PERIOD) + delta;
  const used = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, user.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return used.length > 0;
}

/** Uses up one recovery code of the user, if `code` is one. */
async function acceptRecoveryCode(db: Executor, userId: string, code: string) {
  const used = await db
    .delete(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashToken(normalizeCode(code)))))
    .returning({ id: recoveryCodes.id });
  return used.length > 0;
}

// Recovery codes are typed by hand: any case, with or without the dashes.
const normalizeCode = (code: string) => code.replace(/[\s-]/g, "").toLowerCase();

/** Ten new recovery codes (80 random bits each), replacing any the user had; answered this once. */
async function newRecoveryCodes(db: Executor, userId: string): Promise<string[]> {
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const raw = randomBytes(10).toString("hex");
    return `${raw.slice(0, 5)}-${raw.slice(5, 10)}-${raw.slice(10, 15)}-${raw.slice(15, 20)}`;
  });
  await db
    .insert(recoveryCodes)
    .values(codes.map((code) => ({ id: newId("rcv"), userId, codeHash: hashToken(normalizeCode(code)) })));
  return codes;
}

const WRONG_CODE = "The code is wrong or was used already";
const wrongCode = () =>
  new AppError("validation_failed", WRONG_CODE, { errors: [{ path: "/body/code", message: WRONG_CODE }] });

/**
 * Turns two-factor on with a first code from the app the secret was scanned into; answers the
 * recovery codes. Every other session ends: they were opened without a second factor.
 */
export async function enableTwoFactor(deps: Deps, actor: Principal, code: string) {
  const { userId, sessionId } = sessionUser(actor);
  const user = await loadUser(deps.db, userId);
  if (user.totpEnabledAt) throw conflict("Two-factor log-in is on already");
  if (!user.totpSecretSealed) throw conflict("Start the set-up first: POST /users/me/two-factor");
  const { codes, revocation } = await deps.db.transaction(async (tx) => {
    if (!(await acceptTotp(deps, tx, user, code))) throw wrongCode();
    await tx
      .update(users)
      .set({ totpEnabledAt: deps.now(), updatedAt: deps.now() })
      .where(eq(users.id, userId));
    return {
      codes: await newRecoveryCodes(tx, userId),
      revocation: await endSessions(deps, tx, userId, sessionId),
    };
  });
  deps.revocations.forget(revocation);
  return { recovery_codes: codes };
}

/** Checks the password and a code (TOTP or recovery) of the signed-in user, for changes to 2FA. */
async function proveBoth(deps: Deps, userId: string, password: string, code: string, db: Executor) {
  const user = await loadUser(db, userId);
  if (!user.totpEnabledAt) throw conflict("Two-factor log-in is off");
  const account = `login:${user.email}`;
  await deps.rateLimiter.checkBackoff(account);
  const ok =
    (await verifyPassword(password, user.passwordHash)) &&
    ((await acceptTotp(deps, db, user, code)) || (await acceptRecoveryCode(db, userId, code)));
  if (!ok) {
    await deps.rateLimiter.recordFailure(account);
    throw new AppError("validation_failed", "The password or the code is wrong", {
      errors: [{ path: "/body", message: "current_password and code must both be right" }],
    });
  }
}

/** Turns two-factor off, with the password and a code: a stolen session alone cannot. */
export async function disableTwoFactor(deps: Deps, actor: Principal, password: string, code: string) {
  const { userId } = sessionUser(actor);
  await proveBoth(deps, userId, password, code, deps.db);
  await deps.db.transaction(async (tx) => {
    await tx
      .update(users)
      .set({ totpEnabledAt: null, totpSecretSealed: null, totpLastStep: null, updatedAt: deps.now() })
      .where(eq(users.id, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  });
}

/** A new set of recovery codes (the old ones stop working), with the password and a code. */
export async function regenerateRecoveryCodes(deps: Deps, actor: Principal, password: string, code: string) {
  const { userId } = sessionUser(actor);
  await proveBoth(deps, userId, password, code, deps.db);
  return { recovery_codes: await newRecoveryCodes(deps.db, userId) };
}

/** How many unused recovery codes the user has left. */
export async function recoveryCodesLeft(deps: Deps, userId: string) {
  const rows = await deps.db
    .select({ id: recoveryCodes.id })
    .from(recoveryCodes)
    .where(eq(recoveryCodes.userId, userId))
    .orderBy(asc(recoveryCodes.id));
  return rows.length;
}

/**
 * The log-in's second step: the challenge the password step answered, and a code from the
 * authenticator app or a recovery code. The challenge works until it expires or succeeds; wrong
 * codes count towards the account's log-in back-off.
 */
export async function completeLogin(deps: Deps, challenge: string, code: string, client: Client) {
  await deps.rateLimiter.hit("login_per_ip", client.ip);
  const now = deps.now();
  const [row] = await deps.db
    .select({ userId: accountTokens.userId })
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(challenge)),
        eq(accountTokens.purpose, "login_challenge"),
        gt(accountTokens.expiresAt, now),
      ),
    );
  if (!row) throw new AppError("unauthenticated", "The challenge expired or was used: log in again");
  const user = await loadUser(deps.db, row.userId);
  const account = `login:${user.email}`;
  await deps.rateLimiter.checkBackoff(account);
  const session = await deps.db.transaction(async (tx) => {
    const ok = (await acceptTotp(deps, tx, user, code)) || (await acceptRecoveryCode(tx, user.id, code));
    if (!ok || user.disabled) return "wrong" as const;
    const used = await tx
      .delete(accountTokens)
      .where(eq(accountTokens.tokenHash, hashToken(challenge)))
      .returning({ id: accountTokens.id });
    if (used.length === 0) return "used" as const;
    return openSession(deps, tx, user.id, client);
  });
  if (session === "wrong") {
    await deps.rateLimiter.recordFailure(account);
    throw new AppError("unauthenticated", WRONG_CODE);
  }
  if (session === "used")
    throw new AppError("unauthenticated", "The challenge expired or was used: log in again");
  await deps.rateLimiter.clearFailures(account);
  return session;
}

/** Re-seals every TOTP secret under the current master key, for `npm run rotate-master-key`. */
export async function resealTotpSecrets(deps: Pick<Deps, "db" | "custody">): Promise<{ resealed: number }> {
  return {
    resealed: await resealColumn(
      deps.custody,
      sealedTextColumn(deps.db, users, "totpSecretSealed", totpContext),
    ),
  };
}
