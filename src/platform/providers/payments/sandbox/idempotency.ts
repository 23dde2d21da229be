import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Database, Tx } from "../../../db/index.ts";
import { AppError } from "../../../http/errors.ts";
import { sandboxRequests } from "./tables.ts";

// jsonb has no bigint: amounts are stored tagged, and revived exactly.
const BIG = "$bigint";

export function toJson(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? { [BIG]: v.toString() } : v)),
  );
}

export function fromJson<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value), (_key, v) =>
    v && typeof v === "object" && typeof v[BIG] === "string" ? BigInt(v[BIG]) : v,
  ) as T;
}

function fingerprint(operation: string, params: unknown): string {
  return createHash("sha256")
    .update(operation)
    .update("\n")
    .update(JSON.stringify(toJson(params)))
    .digest("base64url");
}

/**
 * Runs `work` once per idempotency key, Stripe's way: the first answer is stored in the same
 * transaction as the change it describes and replayed for every repeat; the key used for another
 * request is refused. A concurrent repeat waits on the key's row until the first commits.
 */
export async function once<R>(
  db: Database,
  scope: { account: string; key: string; operation: string; params: unknown },
  work: (tx: Tx) => Promise<R>,
): Promise<R> {
  if (!scope.key || scope.key.length > 255) {
    throw new AppError("validation_failed", "An idempotency key of 1 to 255 characters is required");
  }
  const print = fingerprint(scope.operation, scope.params);
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(sandboxRequests)
      .values({ account: scope.account, idempotencyKey: scope.key, fingerprint: print })
      .onConflictDoNothing()
      .returning({ key: sandboxRequests.idempotencyKey });
    if (claimed.length === 0) {
      const [stored] = await tx
        .select()
        .from(sandboxRequests)
        .where(
          and(eq(sandboxRequests.account, scope.account), eq(sandboxRequests.idempotencyKey, scope.key)),
        );
      if (stored.fingerprint !== print) {
        throw new AppError(
          "idempotency_key_reused",
          "This idempotency key was already used for another provider request",
        );
      }
      return fromJson<R>(stored.response);
    }
    const result = await work(tx);
    await tx
      .update(sandboxRequests)
      .set({ response: toJson(result) })
      .where(and(eq(sandboxRequests.account, scope.account), eq(sandboxRequests.idempotencyKey, scope.key)));
    return result;
  });
}
