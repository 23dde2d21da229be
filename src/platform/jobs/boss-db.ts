// pg-boss's own connection handling (its Db: a pool, and a dedicated client for LISTEN with its
// reconnects and heartbeat), reached by path: pg-boss exports only the adapters for other drivers.
import PgBossDb from "pg-boss/dist/db.js";

type ListenArgs = Parameters<PgBossDb["listen"]>;

/**
 * pg-boss's database when DATABASE_URL may be PgBouncer in transaction mode: its queries go through
 * the pooler, its LISTEN (a session that must stay put) through DATABASE_DIRECT_URL. pg-boss opens
 * and closes it as its own (`_pgbdb`), so both pools start and end with the queue.
 */
export class DirectListenDb extends PgBossDb {
  #direct: PgBossDb;

  constructor(config: ConstructorParameters<typeof PgBossDb>[0], directUrl: string) {
    super(config);
    // The listener is a client of its own; this pool only answers its first query (the channel).
    this.#direct = new PgBossDb({ connectionString: directUrl, max: 1, application_name: "pgboss-listen" });
  }

  override async open() {
    await super.open();
    await this.#direct.open();
  }

  override async close() {
    await this.#direct.close();
    await super.close();
  }

  override listen(...args: ListenArgs) {
    return this.#direct.listen(...args);
  }
}
