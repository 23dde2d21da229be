import { and, eq, gt, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { DUMMY_PASSWORD_HASH, hashPassword, hashToken, verifyPassword } from "../../platform/auth/secrets.ts";
import { type Database, type Executor, isUniqueViolation, prepared } from "../../platform/db/index.ts";
import { AppError, forbidden } from "../../platform/http/errors.ts";
import { newId, newSecret } from "../../platform/ids.ts";
import { sessions, users } from "./tables.ts";

export interface SignupInput {
  email: string;
  password: string;
  username: string;
  first_name: string;
  last_name: string;
}

// Session tokens say what they are, so a leaked one is recognisable in a scan.
const SESSION_TOKEN_PREFIX = "ust_";

async function openSession(deps: Deps, db: Executor, userId: string) {
  const token = newSecret(SESSION_TOKEN_PREFIX);
  const expiresAt = new Date(deps.now().getTime() + deps.config.sessionTtlHours * 3600_000);
  await db.insert(sessions).values({ id: newId("ses"), userId, tokenHash: hashToken(token), expiresAt });
  return { token, expiresAt };
}

/** Creates an account and its first session; at most `signup_per_ip` a window from one address. */
export async function signup(deps: Deps, input: SignupInput, ip: string) {
  await deps.rateLimiter.hit("signup_per_ip", ip);
  const passwordHash = await hashPassword(input.password);
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
      const { token } = await openSession(deps, tx, user.id);
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
export async function login(deps: Deps, email: string, password: string, ip: string) {
  const account = `login:${email.toLowerCase()}`;
  await deps.rateLimiter.hit("login_per_ip", ip);
  await deps.rateLimiter.checkBackoff(account);
  const [user] = await deps.db.select().from(users).where(eq(users.email, email.toLowerCase()));
  // Hash even when the email is unknown, so the answer time does not reveal which emails exist.
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!user || !ok || user.disabled) {
    await deps.rateLimiter.recordFailure(account);
    throw new AppError("unauthenticated", "The email or password is wrong");
  }
  await deps.rateLimiter.clearFailures(account);
  return openSession(deps, deps.db, user.id);
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
  const principal: Principal = { kind: "user", userId: row.userId, sessionId: row.sessionId };
  return { principal, expiresAt: row.expiresAt };
}
