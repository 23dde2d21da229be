import { and, eq, isNull, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { recordAudit } from "../../platform/audit/log.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { hashToken } from "../../platform/auth/secrets.ts";
import { type Database, prepared } from "../../platform/db/index.ts";
import { appRecord } from "../../platform/http/app-record.ts";
import { forbidden } from "../../platform/http/errors.ts";
import { type Page, pageOfRows } from "../../platform/http/pagination.ts";
import { newId, newSecret } from "../../platform/ids.ts";
import { requireAppRole } from "../apps/access.ts";
import { apiKeys } from "./tables.ts";

type KeyRow = typeof apiKeys.$inferSelect;

// `sk_live_`/`sk_test_` make a leaked key recognisable to secret scanners, and say which mode it is for.
const keyPrefix = (sandbox: boolean) => (sandbox ? "sk_test_" : "sk_live_");

function present(row: KeyRow) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    created_by: row.createdBy,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

function requireKeyManager(actor: Principal): string {
  // A key cannot mint or revoke keys: a leaked key must not be able to entrench itself.
  if (actor.kind !== "user") throw forbidden("API keys are managed by signed-in members, not by API keys");
  return actor.userId;
}

export async function createKey(deps: Deps, actor: Principal, appId: string, name: string) {
  const userId = requireKeyManager(actor);
  await requireAppRole(deps.db, actor, appId, "edit");
  const key = newSecret(keyPrefix(deps.config.sandbox));
  const row = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(apiKeys)
      .values({
        id: newId("key"),
        appId,
        name,
        prefix: key.slice(0, 12),
        keyHash: hashToken(key),
        createdBy: userId,
      })
      .returning();
    await recordAudit(tx, actor, { appId, action: "api_key.create", targetId: created.id });
    return created;
  });
  return { id: row.id, name: row.name, prefix: row.prefix, key, created_at: row.createdAt.toISOString() };
}

export async function listKeys(deps: Deps, actor: Principal, appId: string, page: Page) {
  requireKeyManager(actor);
  await requireAppRole(deps.db, actor, appId, "view");
  const { rows, total, neighbours } = await pageOfRows(deps, page, {
    table: apiKeys,
    scope: eq(apiKeys.appId, appId),
    newestFirst: true,
  });
  return { items: rows.map(present), total, neighbours };
}

/**
 * Renames a key, with the same rights as revoking it (owners: any key; developers: their own). Only
 * the label changes: the key, its hash and its prefix stay, so the servers using it notice nothing.
 */
export async function renameKey(deps: Deps, actor: Principal, appId: string, keyId: string, name: string) {
  const userId = requireKeyManager(actor);
  const role = await requireAppRole(deps.db, actor, appId, "view");
  const row = await deps.db.transaction(async (tx) => {
    const key = await appRecord(tx, apiKeys, appId, keyId, "API key", "update");
    if (role !== "owner" && key.createdBy !== userId)
      throw forbidden("Only an owner may rename other people's keys");
    const [renamed] = await tx.update(apiKeys).set({ name }).where(eq(apiKeys.id, keyId)).returning();
    await recordAudit(tx, actor, { appId, action: "api_key.rename", targetId: keyId });
    return renamed;
  });
  return present(row);
}

export async function revokeKey(deps: Deps, actor: Principal, appId: string, keyId: string) {
  const userId = requireKeyManager(actor);
  const role = await requireAppRole(deps.db, actor, appId, "view");
  const key = await appRecord(deps.db, apiKeys, appId, keyId, "API key");
  if (role !== "owner" && key.createdBy !== userId)
    throw forbidden("Only an owner may revoke other people's keys");
  await deps.revocations.revokeWith(deps.db, { keyId }, async (tx) => {
    await tx
      .update(apiKeys)
      .set({ revokedAt: deps.now() })
      .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)));
    await recordAudit(tx, actor, { appId, action: "api_key.revoke", targetId: keyId });
  });
}

const keyLookup = (db: Database) =>
  db
    .select({ id: apiKeys.id, appId: apiKeys.appId })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, sql.placeholder("hash")), isNull(apiKeys.revokedAt)))
    .prepare("auth_api_key");

/** Resolves an API key's hash to its app. A revoked key stops working on the next request. */
export async function authenticateKey(deps: Deps, keyHash: string) {
  const [row] = await prepared(deps.db, "auth_api_key", keyLookup).execute({ hash: keyHash });
  if (!row) return undefined;
  const principal: Principal = { kind: "api_key", appId: row.appId, keyId: row.id };
  return { principal };
}
