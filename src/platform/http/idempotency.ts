import { createHash } from "node:crypto";
import { and, asc, eq, isNotNull, like, lt, or, sql } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Principal } from "../auth/principal.ts";
import type { Custody } from "../crypto/custody.ts";
import { isEnvelopeText } from "../crypto/envelope.ts";
import { resealColumn, type SealedColumn } from "../crypto/reseal.ts";
import type { Database } from "../db/index.ts";
import type { Faults } from "../jobs/faults.ts";
import type { JobDefinition } from "../jobs/index.ts";
import { AppError } from "./errors.ts";
import { idempotencyKeys } from "./idempotency-table.ts";
import type { Server } from "./server.ts";

// Stripe's rules, which our users know: keys live 24 hours.
const KEEP_MS = 24 * 3600_000;
// A running request renews its claim every HEARTBEAT_MS for as long as it runs; a claim not renewed
// for ABANDONED_MS belongs to a process that died mid-request, and the key can be used again. So a
// crash frees its key within seconds, while a slow request (however long) keeps it.
const HEARTBEAT_MS = 2_000;
const ABANDONED_MS = 8_000;
const WAIT_MS = 10_000;
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;
/** The rules' numbers, for the idempotency guide of the API's documentation (guides.ts). */
export const IDEMPOTENCY_TIMES = Object.freeze({
  keepMs: KEEP_MS,
  waitMs: WAIT_MS,
  abandonedMs: ABANDONED_MS,
});

declare module "fastify" {
  interface FastifyRequest {
    idempotency?: { scope: string; key: string };
  }
}

function scopeOf(actor: Principal): string {
  return actor.kind === "api_key" ? `app:${actor.appId}` : `user:${actor.userId}`;
}

/** JSON with every object's keys sorted: the same body written with its keys in another order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, item: unknown) => {
    if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
    const sorted: Record<string, unknown> = {};
    for (const name of Object.keys(item).sort()) sorted[name] = (item as Record<string, unknown>)[name];
    return sorted;
  });
}

function requestHash(request: FastifyRequest): string {
  return createHash("sha256")
    .update(`${request.method} ${request.url}\n${canonicalJson(request.body)}`)
    .digest("base64url");
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `Idempotency-Key` on every POST: the first complete answer is stored for 24 hours and replayed
 * for a repeat with the same request (header `idempotent-replayed: true`); the same key with
 * another request is 409 `idempotency_key_reused` (bodies compare as JSON values: key order does not
 * matter); a repeat while the first is still running waits for it, then replays, or after 10 s
 * answers 409. Refused requests (400) store nothing, so a
 * corrected request can reuse the key; 5xx answers are not stored, so the request can be retried.
 *
 * The stored answer is sealed (`custody`, bound to its scope and key): answers hold one-time
 * secrets (an API key's `sk_…`, a webhook's `whsec_…`, a payment's `payment_token`, an invitation's
 * token), which are otherwise kept only hashed or sealed. Sealing every answer, not only those,
 * keeps a replay byte for byte the first answer, secret included: a client whose connection
 * dropped gets the key it would otherwise never see again.
 */
export function registerIdempotency(
  app: Server,
  db: Database,
  now: () => Date,
  faults: Faults,
  custody: Custody,
) {
  // Callback-style hooks that return at once for the requests without a key (every GET): an
  // async hook costs every request a promise and a microtask turn (docs/benchmarks.md).
  app.addHook("preHandler", (request, reply, done) => {
    if (request.method !== "POST" || request.headers["idempotency-key"] === undefined || !request.actor) {
      return done();
    }
    // A replayed answer is sent from here: the handler must not run then.
    claim(request, reply).then((replayed) => {
      if (!replayed) done();
    }, done);
  });

  app.addHook("onSend", (request, reply, payload, done) => {
    if (!request.idempotency) return done(null, payload);
    keepAnswer(request, reply, payload).then(() => done(null, payload), done);
  });

  /** Takes the request's key (false), or answers what its first request answered (true). */
  async function claim(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const key = request.headers["idempotency-key"];
    if (!request.actor) return false;
    if (typeof key !== "string" || !KEY_FORMAT.test(key)) {
      throw new AppError("validation_failed", "Idempotency-Key must be 1 to 255 printable ASCII characters", {
        errors: [{ path: "/header/idempotency-key", message: "must be 1 to 255 printable ASCII characters" }],
      });
    }
    const scope = scopeOf(request.actor);
    const hash = requestHash(request);
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const at = now();
      // Take the key if it is new, expired, or abandoned by a process that died mid-request.
      const [taken] = await db
        .insert(idempotencyKeys)
        .values({
          scope,
          key,
          requestHash: hash,
          state: "running",
          lockedAt: at,
          expiresAt: new Date(at.getTime() + KEEP_MS),
        })
        .onConflictDoUpdate({
          target: [idempotencyKeys.scope, idempotencyKeys.key],
          set: {
            requestHash: hash,
            state: "running",
            responseStatus: null,
            responseBody: null,
            responseHeaders: null,
            lockedAt: at,
            expiresAt: new Date(at.getTime() + KEEP_MS),
          },
          setWhere: or(
            lt(idempotencyKeys.expiresAt, at),
            and(
              eq(idempotencyKeys.state, "running"),
              lt(idempotencyKeys.lockedAt, new Date(at.getTime() - ABANDONED_MS)),
              eq(idempotencyKeys.requestHash, hash),
            ),
          ),
        })
        .returning({ key: idempotencyKeys.key });
      if (taken) {
        request.idempotency = { scope, key };
        keepClaimed(db, now, reply, scope, key);
        faults.crashPoint("idempotency-claimed");
        return false;
      }
      const [existing] = await db
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
      if (!existing) continue; // removed after a 5xx between our two statements: try again
      if (existing.requestHash !== hash) {
        throw new AppError(
          "idempotency_key_reused",
          "This Idempotency-Key was used with a different request",
        );
      }
      if (existing.state === "done") {
        replay(reply, existing, custody);
        return true;
      }
      if (Date.now() > deadline) {
        throw new AppError(
          "conflict",
          "A request with this Idempotency-Key is still being processed; retry later",
        );
      }
      await sleep(50);
    }
  }

  /** Keeps the answer under the request's key (sealed), or frees the key for an answer not worth keeping. */
  async function keepAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<void> {
    const taken = request.idempotency;
    if (!taken) return;
    request.idempotency = undefined;
    const where = and(eq(idempotencyKeys.scope, taken.scope), eq(idempotencyKeys.key, taken.key));
    const status = reply.statusCode;
    if (status >= 500 || status === 429 || status === 400) {
      // Not an answer worth keeping: let the caller retry (or fix the request) with the same key.
      await db.delete(idempotencyKeys).where(where);
      return;
    }
    faults.crashPoint("idempotency-answering");
    const contentType = reply.getHeader("content-type");
    await db
      .update(idempotencyKeys)
      .set({
        state: "done",
        responseStatus: status,
        responseBody: custody.sealText(
          answerContext(taken.scope, taken.key),
          typeof payload === "string" ? payload : payload == null ? "" : String(payload),
        ),
        responseHeaders: contentType ? { "content-type": String(contentType) } : {},
      })
      .where(where);
  }
}

/**
 * Renews the claim while the request runs, and stops when its answer is sent or its connection
 * closes; a process that dies stops renewing, which is how a retry knows the key is free.
 */
function keepClaimed(db: Database, now: () => Date, reply: FastifyReply, scope: string, key: string) {
  const timer = setInterval(() => {
    db.update(idempotencyKeys)
      .set({ lockedAt: now() })
      .where(
        and(
          eq(idempotencyKeys.scope, scope),
          eq(idempotencyKeys.key, key),
          eq(idempotencyKeys.state, "running"),
        ),
      )
      .catch(() => {}); // a missed renewal only shortens the claim; the next one restores it
  }, HEARTBEAT_MS);
  timer.unref();
  reply.raw.once("close", () => clearInterval(timer));
}

/** Bound into each sealed answer: an answer copied onto another key does not open. */
const answerContext = (scope: string, key: string) => `idempotency:${scope}:${key}`;

function replay(reply: FastifyReply, row: typeof idempotencyKeys.$inferSelect, custody: Custody) {
  reply.header("idempotent-replayed", "true");
  for (const [name, value] of Object.entries(row.responseHeaders ?? {})) reply.header(name, value);
  const stored = row.responseBody ?? "";
  // Answers stored before they were sealed replay as they were kept (they expire within a day).
  const body = isEnvelopeText(stored) ? custody.openText(answerContext(row.scope, row.key), stored) : stored;
  // The stored text is sent as is: the answer is byte for byte the first one.
  return reply
    .code(row.responseStatus ?? 200)
    .serializer((text: unknown) => text as string)
    .send(body);
}

/** The sealed answers, for `npm run rotate-master-key`; paged by scope and key. */
function sealedAnswers(db: Database): SealedColumn {
  const SEP = "\n";
  return {
    async page(after, limit) {
      const [scope, key] = after === "" ? ["", ""] : after.split(SEP);
      const rows = await db
        .select({
          scope: idempotencyKeys.scope,
          key: idempotencyKeys.key,
          sealed: idempotencyKeys.responseBody,
        })
        .from(idempotencyKeys)
        .where(
          and(
            sql`(${idempotencyKeys.scope}, ${idempotencyKeys.key}) > (${scope}, ${key})`,
            isNotNull(idempotencyKeys.responseBody),
            like(idempotencyKeys.responseBody, "e1:%"),
          ),
        )
        .orderBy(asc(idempotencyKeys.scope), asc(idempotencyKeys.key))
        .limit(limit);
      return rows.map((row) => ({
        key: `${row.scope}${SEP}${row.key}`,
        context: answerContext(row.scope, row.key),
        sealed: row.sealed!,
      }));
    },
    async replace(value, next) {
      const [scope, key] = value.key.split(SEP);
      const updated = await db
        .update(idempotencyKeys)
        .set({ responseBody: next })
        .where(
          and(
            eq(idempotencyKeys.scope, scope),
            eq(idempotencyKeys.key, key),
            eq(idempotencyKeys.responseBody, value.sealed),
          ),
        )
        .returning({ key: idempotencyKeys.key });
      return updated.length > 0;
    },
  };
}

/** Moves every stored answer to the current master key, for `npm run rotate-master-key`. */
export async function resealIdempotentAnswers(deps: { db: Database; custody: Custody }): Promise<number> {
  return resealColumn(deps.custody, sealedAnswers(deps.db));
}

/** Deletes the keys past their 24 hours, hourly, so the table holds one day of keys. */
export function purgeIdempotencyKeysJob(db: Database, now: () => Date): JobDefinition<object> {
  return {
    name: "platform.purge-idempotency-keys",
    schedule: "17 * * * *",
    async handle() {
      await db.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, now()));
    },
  };
}
