import { createHash } from "node:crypto";
import { and, eq, type SQL, sql } from "drizzle-orm";
import { type Database, drizzleRunner, type Runner, type Tx, writeIf } from "../../../db/index.ts";
import { AppError } from "../../../http/errors.ts";
import { sandboxRequests } from "./tables.ts";

// jsonb has no bigint: amounts are stored tagged, and revived exactly.
const BIG = "$bigint";

export function toJson(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? { [BIG]: v.toString() } : v)),
  );
}

function fromJson<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value), (_key, v) =>
    v && typeof v === "object" && typeof v[BIG] === "string" ? BigInt(v[BIG]) : v,
  ) as T;
}

export function fingerprint(operation: string, params: unknown): string {
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
export interface Scope {
  account: string;
  key: string;
  operation: string;
  params: unknown;
}

export function checkKey(key: string) {
  if (!key || key.length > 255) {
    throw new AppError("validation_failed", "An idempotency key of 1 to 255 characters is required");
  }
}

/** The stored answer to a repeated key, or the refusal of a key used for another request. */
async function replay<R>(db: Database | Tx, scope: Scope, print: string): Promise<R> {
  const [stored] = await db
    .select()
    .from(sandboxRequests)
    .where(and(eq(sandboxRequests.account, scope.account), eq(sandboxRequests.idempotencyKey, scope.key)));
  if (stored.fingerprint !== print) {
    throw new AppError(
      "idempotency_key_reused",
      "This idempotency key was already used for another provider request",
    );
  }
  return fromJson<R>(stored.response);
}

/**
 * The statement that claims `scope`'s key, unless the outage flag `outageFlag` is on (then nothing
 * is claimed or written): with `answer`, the claim stores it, and `rows` are written only when the
 * claim is new. One row: `down` (the flag) and `claimed`.
 */
function claimStatement(
  scope: Scope,
  print: string,
  outageFlag: string,
  answer?: unknown,
  rows: (when: SQL) => SQL[] = () => [],
  also: SQL = sql``,
): SQL {
  return writeIf({
    first: {
      outage: sql`select coalesce((select "enabled" from "sandbox_flags" where "name" = ${outageFlag}), false)
          as down`,
      claim: sql`insert into "sandbox_requests" ("account", "idempotency_key", "fingerprint", "response")
          select ${scope.account}::text, ${scope.key}::text, ${print}::text, ${
            answer === undefined ? null : JSON.stringify(toJson(answer))
          }::jsonb
          from outage where not outage.down
          on conflict do nothing returning 1`,
    },
    condition: sql`exists (select 1 from claim)`,
    writes: rows,
    answer: sql`(select down from outage) as down, holds as claimed${also}`,
  });
}

/**
 * Runs `work` once per key, in a transaction that begins by claiming the key (the outage flag is
 * read in the same statement: while it is on, nothing is claimed and the answer is `outage`). The
 * answer is stored in the same transaction.
 */
export async function once<R>(
  db: Database,
  scope: Scope,
  outageFlag: string,
  work: (tx: Tx) => Promise<R>,
): Promise<OneStatement<R>> {
  checkKey(scope.key);
  const print = fingerprint(scope.operation, scope.params);
  return db.transaction(async (tx): Promise<OneStatement<R>> => {
    const [claim] = await drizzleRunner(tx)(claimStatement(scope, print, outageFlag));
    if (claim.down === true) return { outage: true };
    if (claim.claimed !== true) return { answer: await replay<R>(tx, scope, print) };
    const result = await work(tx);
    await tx
      .update(sandboxRequests)
      .set({ response: toJson(result) })
      .where(and(eq(sandboxRequests.account, scope.account), eq(sandboxRequests.idempotencyKey, scope.key)));
    return { answer: result };
  });
}

/** What `once` or `onceInOneStatement` found: the answer, or the outage flag on (nothing was written). */
export type OneStatement<R> = { answer: R } | { outage: true };

/**
 * `once` in one statement, for a request whose answer is known before anything is written (a new
 * intent: its id and times are chosen up front). The claim of the key with its answer, and the
 * rows the request writes, are one atomic statement; the rows are written only when the claim is
 * new, and nothing when `outageFlag` is on. A repeat finds the key taken and gets the stored answer.
 * One round trip instead of a transaction of five: this runs once for every payment created.
 */
export async function onceInOneStatement<R>(
  run: Runner,
  db: Database,
  scope: Scope,
  outageFlag: string,
  answer: R,
  rows: (when: SQL) => SQL[],
  also?: SQL,
): Promise<OneStatement<R> & { written?: Record<string, unknown> }> {
  checkKey(scope.key);
  const print = fingerprint(scope.operation, scope.params);
  const [result] = await run(claimStatement(scope, print, outageFlag, answer, rows, also));
  if (result.down === true) return { outage: true };
  // `written`: the statement's own row, with the columns `also` asked for (`, … as name`).
  if (result.claimed === true) return { answer, written: result };
  return { answer: await replay<R>(db, scope, print) };
}
