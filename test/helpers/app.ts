import { Writable } from "node:stream";
import { type Application, type BuildOptions, buildApplication } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { sandboxMailStore } from "../../src/modules/sandbox-inbox/store.ts";
import { createCustody } from "../../src/platform/crypto/custody.ts";
import { createLogger } from "../../src/platform/log.ts";
import { SandboxMailer } from "../../src/platform/mail/index.ts";
import { isolatedDatabase } from "./database.ts";

/** The engine the suite runs on: PostgreSQL when DATABASE_URL is set, else the embedded PGlite. */
export const onPostgres = Boolean(process.env.DATABASE_URL);

export interface TestApp extends Application {
  mailer: SandboxMailer;
  /** Every log line the app wrote, as text: tests check no secret ever appears here. */
  logs: string[];
  connectionString: string | undefined;
  /**
   * A process restart: this app stops (requests drained, jobs handed back) and a new one is built
   * over the same database with the same settings and clock, as `npm start` after a stop would;
   * `changed` settings are a redeploy with those changed. Use the answer from then on; this one is
   * closed.
   */
  restart(changed?: Record<string, string>): Promise<TestApp>;
}

/**
 * The least a live-mode configuration needs to load (`SANDBOX=false`): an SMTP server and Stripe's
 * keys, as shapes only. For tests of settings (`loadConfig`); nothing is sent anywhere with them.
 */
export const LIVE_MODE_SETTINGS: Readonly<Record<string, string>> = {
  SANDBOX: "false",
  SMTP_URL: "smtp://127.0.0.1:2525",
  STRIPE_SECRET_KEY: "sk_live_x1",
  STRIPE_WEBHOOK_SECRET: "whsec_x",
  STRIPE_PUBLISHABLE_KEY: "pk_live_x1",
  STRIPE_CONNECT_WEBHOOK_SECRET: "whsec_y",
};

const PER_ADDRESS_LIMITS_OFF = [
  "login_per_ip",
  "signup_per_ip",
  "password_reset_per_ip",
  "checkout_per_ip",
  "kyc_widget_per_ip",
  "shopper_code_per_ip",
  "shopper_session_per_ip",
]
  .map((name) => `${name}=1000000/60`)
  .join(",");

export async function buildTestApp(
  env: Record<string, string> = {},
  options: Pick<BuildOptions, "spanExporter" | "now"> = {},
): Promise<TestApp> {
  // Only when a test asks: every other test keeps the driver's defaults.
  const database = await isolatedDatabase({
    poolSize: env.DATABASE_POOL_SIZE ? Number(env.DATABASE_POOL_SIZE) : undefined,
    poolWaitMs: env.DATABASE_POOL_WAIT_MS ? Number(env.DATABASE_POOL_WAIT_MS) : undefined,
  });
  try {
    return await buildOn(database, env, options);
  } catch (error) {
    // A build refused (a bad setting) must not leave its database open: the file would never exit,
    // and `npm test` would wait for it (it runs without --test-force-exit, README "Test runs and CI").
    await database.handle.close();
    await database.drop();
    throw error;
  }
}

/**
 * The app over a database this helper keeps: the app's own close leaves it open (so `restart` can
 * build the next process on it), and the TestApp's close shuts it and drops it.
 */
async function buildOn(
  database: Awaited<ReturnType<typeof isolatedDatabase>>,
  env: Record<string, string>,
  options: Pick<BuildOptions, "spanExporter" | "now">,
): Promise<TestApp> {
  const { handle, drop } = database;
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      logs.push(chunk.toString());
      callback();
    },
  });
  const config = loadConfig({
    SANDBOX: "true",
    LOG_LEVEL: "info",
    PORT: "0",
    // Every request of a test comes from 127.0.0.1: per-address limits would count a whole file's
    // sign-ups and checkouts as one client's. The per-account, per-price, per-email and per-token
    // limits keep their defaults; test/platform/rate-limits.test.ts sets the per-address ones.
    RATE_LIMITS: PER_ADDRESS_LIMITS_OFF,
    // A test file signs up a few users, the suite about a thousand: at the default cost each hash
    // is 40 to 110 ms of CPU. Hashes keep their cost, so what they prove holds at any cost;
    // test/users/password-hash-cost.test.ts runs the default. Live mode refuses a low cost.
    ...(env.SANDBOX === "false" ? {} : { PASSWORD_HASH_COST: "10" }),
    ...env,
  });
  const logger = createLogger(config.logLevel, sink);
  // As the app's own: in sandbox mode every mail also lands in the sandbox inbox (`/sandbox/mail`),
  // and tests read what was sent from `mailer`. With SMTP_URL the app's own SMTP mailer sends it
  // (test/helpers/smtp.ts receives it) and `mailer` stays empty.
  const custody = createCustody(config);
  const mailer = new SandboxMailer(logger, config.sandbox ? sandboxMailStore(handle.db, custody) : undefined);
  const application = await buildApplication({
    config,
    logger,
    database: { ...handle, close: async () => {} },
    custody,
    mailer: config.mail.transport === "smtp" ? undefined : mailer,
    // A test file answers with a few of the routes: compiling every serializer up front is a
    // second of CPU per file for nothing (src/platform/http/serializers.ts).
    compileOnFirstUse: true,
    ...options,
  });
  await application.start();
  let closed = false;
  return {
    ...application,
    mailer,
    logs,
    connectionString: handle.connectionString,
    async close() {
      await application.close();
      if (closed) return;
      closed = true;
      await handle.close();
      await drop();
    },
    async restart(changed = {}) {
      await application.close();
      return buildOn(database, { ...env, ...changed }, options);
    },
  };
}
