import { sql } from "drizzle-orm";
import pg from "pg";
import type { Logger } from "pino";
import { type Database, type DatabaseHandle, sessionConnectionString, type Tx } from "../db/index.ts";
import type { CredentialCache, Revocation } from "./cache.ts";

const CHANNEL = "credential_revoked";

export interface Revocations {
  /**
   * Runs `work` in a transaction that also publishes `revocation`; once it commits, the credential
   * is dropped from this process's cache at once, and from every other process's on the NOTIFY.
   */
  revokeWith<T>(db: Database, revocation: Revocation, work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * For a revocation known only inside a caller's transaction: `publish` sends it in `tx` (other
   * processes drop it when `tx` commits); `forget` drops it here, called once `tx` has committed.
   */
  publish(tx: Tx, revocation: Revocation): Promise<void>;
  forget(revocation: Revocation): void;
  stop(): Promise<void>;
}

export async function startRevocations(
  database: DatabaseHandle,
  cache: CredentialCache,
  logger: Logger,
  /**
   * Other channels this listener also follows (one connection serves them all), each handler called
   * on a NOTIFY and after the listener (re)connects, when anything sent meanwhile is unknown.
   */
  channels: Record<string, () => void> = {},
): Promise<Revocations> {
  let listener: pg.Client | undefined;
  let stopped = false;

  // Only PostgreSQL can have other processes; the embedded database belongs to this one. LISTEN
  // needs a session of its own: the direct URL when DATABASE_URL may be a transaction-mode pooler.
  const connectionString = sessionConnectionString(database);
  const listen = async () => {
    if (stopped || !connectionString) return;
    const client = new pg.Client({ connectionString });
    client.on("notification", (message) => {
      if (message.channel !== CHANNEL) return channels[message.channel]?.();
      try {
        cache.revoke(JSON.parse(message.payload ?? "{}") as Revocation);
      } catch {
        cache.clear();
      }
    });
    client.on("error", (error) => {
      logger.warn({ err: error }, "credential revocation listener lost; cache cleared, reconnecting");
      cache.clear();
      listener = undefined;
      client.end().catch(() => {});
      setTimeout(() => void listen().catch(() => {}), 1000).unref();
    });
    await client.connect();
    await client.query(`listen ${CHANNEL}`);
    for (const channel of Object.keys(channels)) await client.query(`listen ${channel}`);
    // Anything revoked while no listener ran is unknown here: start from an empty cache.
    cache.clear();
    listener = client;
    for (const handler of Object.values(channels)) handler();
  };
  await listen();

  return {
    async revokeWith(db, revocation, work) {
      const result = await db.transaction(async (tx) => {
        const value = await work(tx);
        await tx.execute(sql`select pg_notify(${CHANNEL}, ${JSON.stringify(revocation)})`);
        return value;
      });
      cache.revoke(revocation);
      return result;
    },
    async publish(tx, revocation) {
      await tx.execute(sql`select pg_notify(${CHANNEL}, ${JSON.stringify(revocation)})`);
    },
    forget(revocation) {
      cache.revoke(revocation);
    },
    async stop() {
      stopped = true;
      await listener?.end().catch(() => {});
    },
  };
}
