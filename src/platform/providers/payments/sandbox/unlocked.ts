import { and, eq, type SQL, sql } from "drizzle-orm";
import { type Database, insertRow, isUniqueViolation, type Runner, writeIf } from "../../../db/index.ts";
import { checkKey, fingerprint, type OneStatement, type Scope, toJson } from "./idempotency.ts";
import { type IntentRow, intentChange } from "./intent-rows.ts";
import { sandboxEvents, sandboxIntents } from "./tables.ts";

/**
 * An intent as this process last wrote it, with the version (`xmin`) the write gave it: a call
 * that needs nothing else read (a capture) decides on it without reading the intent again, and its
 * write holds only while the intent is still at that version.
 */
export interface KnownIntent {
  row: IntentRow;
  version: string;
}

/** Intents kept as last written by a process (`LastWritten`): a few thousand payments in flight need theirs. */
const WRITTEN_KEPT = 2000;

/** Intents by id as this process last wrote them, newest last; the oldest go first past WRITTEN_KEPT. */
export class LastWritten {
  private readonly intents = new Map<string, KnownIntent>();

  get(intentId: string): KnownIntent | undefined {
    return this.intents.get(intentId);
  }

  set(intentId: string, intent: KnownIntent) {
    this.intents.delete(intentId);
    this.intents.set(intentId, intent);
    if (this.intents.size > WRITTEN_KEPT) this.intents.delete(this.intents.keys().next().value!);
  }
}

/** What a call decides on the intent it read: the change to write, and its answer given the changed row. */
export interface IntentDecision<R> {
  set: Partial<IntentRow>;
  answer: (next: IntentRow) => R;
}

/**
 * `once` for a call that changes one intent, without a transaction: the intent is read with the
 * outage flag and whether the key is taken (one statement), `decide` works on it, and the change is
 * written in one more: the key's claim with its answer, the intent's update and the event it makes,
 * only while the flag is off, the key unused and the intent unchanged since it was read. The
 * update checks the intent's `xmin` in its own `where`, so a change committed after the
 * statement's snapshot is seen too, and the claim and the event are written only with it; a key
 * claimed meanwhile fails the claim, and with it the whole statement. Two round trips for a
 * transaction of six or seven (a confirm and a capture, once each for every payment). With
 * `known` (the intent as this process last wrote it, and its version), the read is left out and the
 * write alone, guarded the same way, says whether the intent was still as known: one round trip.
 * Answers the row as written and its new version (`written`) for the next call to know.
 *
 * Answers undefined, having written nothing, where any of that did not hold (a repeat of the key,
 * a race, a bank debit due to settle, no such intent): the caller then goes the locking way
 * (`once`), which answers each of those as it always has. What `decide` throws goes to the caller,
 * as it would from inside `once`'s transaction, which then writes nothing either.
 */
export async function onceOnUnchangedIntent<R>(
  run: Runner,
  db: Database,
  scope: Scope,
  outageFlag: string,
  intentId: string,
  now: Date,
  decide: (row: IntentRow) => Promise<IntentDecision<R>>,
  known?: KnownIntent,
): Promise<(OneStatement<R> & { written?: KnownIntent }) | undefined> {
  checkKey(scope.key);
  const outage = sql`coalesce((select "enabled" from "sandbox_flags" where "name" = ${outageFlag}), false)`;
  const keyTaken = sql`exists (select 1 from "sandbox_requests"
    where "account" = ${scope.account} and "idempotency_key" = ${scope.key})`;
  // The intent as this process wrote it last, when the call needs nothing else: the write's own
  // guard (the version, the flag, the key) stands for the read, and a write that does not hold is
  // answered by reading after all (undefined below: the caller tries again without `known`).
  // (Only the intent of the caller's account: another account's is read, and not found.)
  const [found] =
    known?.row.account === scope.account
      ? [{ row: known.row, version: known.version, down: false, taken: false }]
      : await db
          .select({
            row: sandboxIntents,
            version: sql<string>`${sandboxIntents}.xmin::text`,
            down: sql<boolean>`${outage}`,
            taken: sql<boolean>`${keyTaken}`,
          })
          .from(sandboxIntents)
          .where(and(eq(sandboxIntents.id, intentId), eq(sandboxIntents.account, scope.account)));
  if (found?.down === true) return { outage: true };
  if (!found || found.taken || (found.row.settlesAt && found.row.settlesAt <= now)) return undefined;
  const decision = await decide(found.row);
  const { next, event } = intentChange(found.row, decision.set, now);
  const answer = decision.answer(next);
  const update = db
    .update(sandboxIntents)
    .set({ ...decision.set, updatedAt: now })
    .where(
      and(
        eq(sandboxIntents.id, intentId),
        sql`${sandboxIntents}.xmin::text = ${found.version}`,
        sql`not (select down from outage)`,
        sql`not ${keyTaken}`,
      ),
    )
    .returning({ version: sql<string>`${sandboxIntents}.xmin::text`.as("version") });
  const statement = writeIf({
    first: {
      outage: sql`select ${outage} as down`,
      changed: update.getSQL(),
      claim: sql`insert into "sandbox_requests" ("account", "idempotency_key", "fingerprint", "response")
        select ${scope.account}::text, ${scope.key}::text, ${fingerprint(scope.operation, scope.params)}::text,
          ${JSON.stringify(toJson(answer))}::jsonb from changed`,
    },
    condition: sql`exists (select 1 from changed)`,
    writes: (when: SQL) => (event ? [insertRow(sandboxEvents, event, when)] : []),
    answer: sql`holds as done, (select version from changed) as version`,
  });
  try {
    const [result] = await run(statement);
    if (result.done !== true) return undefined;
    return { answer, written: { row: next, version: String(result.version) } };
  } catch (error) {
    // The key, claimed by a repeat since the read: the locking way answers it.
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}
