import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { dummyPasswordHash, hashPassword, hashToken, verifyPassword } from "../../platform/auth/secrets.ts";
import {
  type Database,
  type Executor,
  isUniqueViolation,
  prepared,
  type Tx,
} from "../../platform/db/index.ts";
import { AppError, forbidden } from "../../platform/http/errors.ts";
import { newId, newSecret } from "../../platform/ids.ts";
import { issueAccountToken } from "./account-tokens.ts";
import { ACCOUNT_MAIL_JOB, type AccountMail } from "./jobs.ts";
import { sessions, users } from "./tables.ts";

export interface SignupInput {
  email: string;
  password: string;
  username: string;
  first_name: string;
  last_name: string;
}

/** Where a request comes from, kept with the session it opens so its owner can recognise it. */
export interface Client {
  ip: string;
  userAgent: string | undefined;
}

// Session tokens say what they are, so a leaked one is recognisable in a scan.
const SESSION_TOKEN_PREFIX = "ust_";
// A user agent is whatever the client says: kept to a length a list can show.
const USER_AGENT_LENGTH = 256;

export async function openSession(deps: Deps, db: Executor, userId: string, client: Client) {
  const token = newSecret(SESSION_TOKEN_PREFIX);
  const now = deps.now();
  const expiresAt = new Date(now.getTime() + deps.config.sessionTtlHours * 3600_000);
  await db.insert(sessions).values({
    id: newId("ses"),
    userId,
    tokenHash: hashToken(token),
    expiresAt,
    ip: client.ip,
    userAgent: client.userAgent?.slice(0, USER_AGENT_LENGTH) ?? null,
    lastUsedAt: now,
  });
  return { token, expiresAt };
}

/** Queues the mail that proves `email` is the user's, in the caller's transaction. */
export function sendVerificationMail(deps: Deps, tx: Tx, userId: string, email: string) {
  return deps.jobs.send<AccountMail>(tx, ACCOUNT_MAIL_JOB, { userId, kind: "email_verification", email });
}

/**
 * Creates an account and its first session, and mails a link that verifies the address; at most
 * `signup_per_ip` a window from one address.
 */
export async function signup(deps: Deps, input: SignupInput, client: Client) {
  await deps.rateLimiter.hit("signup_per_ip", client.ip);
  const passwordHash = await hashPassword(input.password, deps.config.passwordHashCost);
  try {
    return await deps.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          id: newId("usr"),
          email: input.email.toLowerCase(),
          username: input.username,
          firstName: input.first_name,
          lastName: input.last_name,
          passwordHash,
        })
        .returning();
      const { token } = await openSession(deps, tx, user.id, client);
      await sendVerificationMail(deps, tx, user.id, user.email);
      return { user, token };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("conflict", "A user with this email or username already exists");
    }
    throw error;
  }
}

/**
 * A session for the right email and password. Limited per client address, and per account by a
 * back-off that grows with each wrong password (even the right one waits it out), counted for
 * unknown emails too so that the answers do not reveal which accounts exist.
 */
export async function login(deps: Deps, email: string, password: string, client: Client) {
  const account = `login:${email.toLowerCase()}`;
  await deps.rateLimiter.hit("login_per_ip", client.ip);
  await deps.rateLimiter.checkBackoff(account);
  const [user] = await deps.db.select().from(users).where(eq(users.email, email.toLowerCase()));
  // Hash even when the email is unknown, so the answer time does not reveal which emails exist.
  const ok = await verifyPassword(
    password,
    user?.passwordHash ?? dummyPasswordHash(deps.config.passwordHashCost),
  );
  if (!user || !ok || user.disabled) {
    await deps.rateLimiter.recordFailure(account);
    throw new AppError("unauthenticated", "The email or password is wrong");
  }
  await deps.rateLimiter.clearFailures(account);
  if (user.totpEnabledAt) {
    // The password was right; the session waits for the second factor (`POST /auth/login/2fa`).
    const challenge = await issueAccountToken(deps.db, deps.now(), user.id, "login_challenge");
    throw new AppError("two_factor_required", "Send a code from your authenticator app to /auth/login/2fa", {
      headers: { "www-authenticate": 'Bearer realm="api"' },
      extensions: {
        challenge_token: challenge.token,
        challenge_expires_at: challenge.expiresAt.toISOString(),
      },
    });
  }
  return openSession(deps, deps.db, user.id, client);
}

export async function logout(deps: Deps, actor: Principal) {
  if (actor.kind !== "user") throw forbidden("Only a user session can log out; revoke API keys instead");
  await deps.revocations.revokeWith(deps.db, { sessionId: actor.sessionId }, (tx) =>
    tx.delete(sessions).where(eq(sessions.id, actor.sessionId)),
  );
}

export function requireUser(actor: Principal): string {
  if (actor.kind !== "user") throw forbidden("This endpoint needs a user session, not an API key");
  return actor.userId;
}

export async function getProfile(deps: Deps, actor: Principal) {
  const userId = requireUser(actor);
  const [user] = await prepared(deps.db, "user_by_id", userById).execute({ id: userId });
  return user;
}

const userById = (db: Database) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .prepare("user_by_id");

const sessionLookup = (db: Database) =>
  db
    .select({ sessionId: sessions.id, userId: sessions.userId, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder("hash")),
        gt(sessions.expiresAt, sql.placeholder("now")),
        eq(users.disabled, false),
      ),
    )
    .prepare("auth_session");

/** Resolves a session token's hash to its user, if the session is live and the user not disabled. */
export async function authenticateSession(deps: Deps, tokenHash: string) {
  const [row] = await prepared(deps.db, "auth_session", sessionLookup).execute({
    hash: tokenHash,
    now: deps.now(),
  });
  if (!row) return undefined;
  noteSessionUse(deps, row.sessionId);
  const principal: Principal = { kind: "user", userId: row.userId, sessionId: row.sessionId };
  return { principal, expiresAt: row.expiresAt };
}

// "Last used" is for a person telling their sessions apart, not an access log: written at most
// once a minute per session, on the credential cache's misses, and never in the request's way.
const LAST_USED_PRECISION_MS = 60_000;

function noteSessionUse(deps: Deps, sessionId: string) {
  const now = deps.now();
  void deps.db
    .update(sessions)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(sessions.id, sessionId),
        or(
          isNull(sessions.lastUsedAt),
          lt(sessions.lastUsedAt, new Date(now.getTime() - LAST_USED_PRECISION_MS)),
        ),
      ),
    )
    .catch((error: unknown) => deps.logger.debug({ err: error }, "session last use not noted"));
}
