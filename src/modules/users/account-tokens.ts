import { and, eq, gt } from "drizzle-orm";
import { hashToken } from "../../platform/auth/secrets.ts";
import type { Executor } from "../../platform/db/index.ts";
import { newId, newSecret } from "../../platform/ids.ts";
import { type AccountTokenPurpose, accountTokens } from "./tables.ts";

// Each purpose's prefix says what a token is, so a leaked one is recognisable in a scan (and
// masked in the sandbox mailer's log copy), and how long it lives: a reset link an hour (the
// issue's rule and OWASP's advice), a verification link two days (people read mail late), the
// log-in challenge five minutes (the time to open an authenticator app).
const PURPOSES: Record<AccountTokenPurpose, { prefix: string; ttlMs: number }> = {
  password_reset: { prefix: "pwr_", ttlMs: 3600_000 },
  email_verification: { prefix: "evt_", ttlMs: 48 * 3600_000 },
  login_challenge: { prefix: "lch_", ttlMs: 5 * 60_000 },
};

/**
 * A new single-use token for `userId`; only its hash is stored. Made by the job that mails it (or
 * the log-in that answers it), so the token itself is never at rest, not even in job data.
 */
export async function issueAccountToken(
  db: Executor,
  now: Date,
  userId: string,
  purpose: AccountTokenPurpose,
  email?: string,
): Promise<{ token: string; expiresAt: Date }> {
  const { prefix, ttlMs } = PURPOSES[purpose];
  const token = newSecret(prefix);
  const expiresAt = new Date(now.getTime() + ttlMs);
  await db.insert(accountTokens).values({
    id: newId("atk"),
    userId,
    purpose,
    tokenHash: hashToken(token),
    email: email ?? null,
    expiresAt,
  });
  return { token, expiresAt };
}

/** The condition that picks `token` while it is a live token of `purpose` (not yet expired). */
function liveToken(now: Date, token: string, purpose: AccountTokenPurpose) {
  return and(
    eq(accountTokens.tokenHash, hashToken(token)),
    eq(accountTokens.purpose, purpose),
    gt(accountTokens.expiresAt, now),
  );
}

/**
 * Uses up a live token of `purpose`: deleted in the same statement that finds it, so two requests
 * with one token cannot both succeed. Answers its user and address, or undefined.
 */
export async function consumeAccountToken(
  db: Executor,
  now: Date,
  token: string,
  purpose: AccountTokenPurpose,
): Promise<{ userId: string; email: string | null } | undefined> {
  const [row] = await db
    .delete(accountTokens)
    .where(liveToken(now, token, purpose))
    .returning({ userId: accountTokens.userId, email: accountTokens.email });
  return row;
}

/** Whether `token` is a live token of `purpose` (the hosted pages check before showing a form). */
export async function accountTokenIsLive(
  db: Executor,
  now: Date,
  token: string,
  purpose: AccountTokenPurpose,
): Promise<boolean> {
  const [row] = await db
    .select({ id: accountTokens.id })
    .from(accountTokens)
    .where(liveToken(now, token, purpose));
  return row !== undefined;
}

/** Drops every token of `purpose` the user holds (a reset used ends the other reset links). */
export async function dropAccountTokens(db: Executor, userId: string, purpose: AccountTokenPurpose) {
  await db
    .delete(accountTokens)
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose)));
}
