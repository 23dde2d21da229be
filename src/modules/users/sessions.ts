import { and, eq, gt } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { forbidden, notFound } from "../../platform/http/errors.ts";
import { type Page, pageOfRows } from "../../platform/http/pagination.ts";
import { sessions } from "./tables.ts";

type SessionRow = typeof sessions.$inferSelect;

function present(row: SessionRow, currentId: string) {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    expires_at: row.expiresAt.toISOString(),
    ip: row.ip,
    user_agent: row.userAgent,
    current: row.id === currentId,
  };
}

function sessionActor(actor: Principal) {
  if (actor.kind !== "user") throw forbidden("This endpoint needs a user session, not an API key");
  return actor;
}

/** The caller's live sessions, newest first, the one they call from marked `current`. */
export async function listSessions(deps: Deps, actor: Principal, page: Page) {
  const { userId, sessionId } = sessionActor(actor);
  const live = and(eq(sessions.userId, userId), gt(sessions.expiresAt, deps.now()));
  const { rows, total, neighbours } = await pageOfRows(deps, page, {
    table: sessions,
    scope: live,
    newestFirst: true,
  });
  return { items: rows.map((r) => present(r, sessionId)), total, neighbours };
}

/** Ends one of the caller's sessions (the current one too: that is a log-out). */
export async function endSession(deps: Deps, actor: Principal, id: string) {
  const { userId } = sessionActor(actor);
  const ended = await deps.revocations.revokeWith(deps.db, { sessionId: id }, (tx) =>
    tx
      .delete(sessions)
      .where(and(eq(sessions.id, id), eq(sessions.userId, userId)))
      .returning({ id: sessions.id }),
  );
  if (ended.length === 0) throw notFound("Session");
}
