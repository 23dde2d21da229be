import { after, before, type TestContext } from "node:test";
import type { BuildOptions } from "../../src/app.ts";
import { buildTestApp, type TestApp } from "./app.ts";
import { tenantFixture } from "./http.ts";
import { apiKeyOf } from "./prices.ts";

export type Tenants = Awaited<ReturnType<typeof tenantFixture>>;

export interface AppFixture {
  /** The app, built on the suite's engine (test/helpers/app.ts). */
  readonly app: TestApp;
  /** An owner with an app, a developer member of it, and an outsider with an app of their own. */
  readonly tenants: Tenants;
  /** @deprecated The former name of `app`, kept so tests written before the rename still run. */
  readonly t: TestApp;
  /** @deprecated The former name of `tenants`, kept so tests written before the rename still run. */
  readonly f: Tenants;
  /** An API key of the owner's app, made on first use (so files that count keys see only theirs). */
  key(): Promise<string>;
}

export interface AppFixtureOptions extends Pick<BuildOptions, "spanExporter" | "now"> {
  /**
   * The file's own set-up (prices, receivers, wallets...), run once the app and its tenants are
   * ready. It belongs here rather than in a second top-level `before`: node:test starts the
   * top-level `before` hooks of a file together, without waiting for one to end before the next.
   */
  setUp?: () => Promise<void>;
  /** The file's own clean-up, run before the app closes. */
  tearDown?: () => Promise<void>;
  /** The clean-up of what the app talked to (a node, a stand-in), run once the app is closed. */
  afterClose?: () => Promise<void>;
  /** False for a file that makes its own users: no tenants are signed up, and `fx.tenants` throws. */
  tenants?: boolean;
}

/**
 * The app's settings, or a function answering them at build: for settings known only once a node or
 * a stand-in the file starts is listening (its address).
 */
export type TestAppEnv = Record<string, string> | (() => Promise<Record<string, string>>);

/**
 * The set-up most test files share, as fastify/demo's `build(t)`: the app is built before the
 * file's tests with its tenants (`tenantFixture`) and closed after them. Call it at the top of the
 * file; read `fx.app` and `fx.tenants` inside tests and hooks, once the file's `before` has run.
 */
export function useTestApp(env: TestAppEnv = {}, options: AppFixtureOptions = {}): AppFixture {
  let t: TestApp | undefined;
  let f: Tenants | undefined;
  let key: Promise<string> | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("useTestApp: read the fixture inside a test or hook");
    return value;
  };
  const tenants = (): Tenants => {
    if (options.tenants === false) throw new Error("useTestApp: this file asked for no tenants");
    return ready(f);
  };
  before(async () => {
    const settings = typeof env === "function" ? await env() : env;
    t = await buildTestApp(settings, { spanExporter: options.spanExporter, now: options.now });
    if (options.tenants !== false) f = await tenantFixture(t);
    await options.setUp?.();
  });
  after(async () => {
    await options.tearDown?.();
    await t?.close();
    await options.afterClose?.();
  });
  return {
    get app() {
      return ready(t);
    },
    get tenants() {
      return tenants();
    },
    get t() {
      return ready(t);
    },
    get f() {
      return tenants();
    },
    key() {
      key ??= apiKeyOf(ready(t), tenants().owner.token, tenants().app.id);
      return key;
    },
  };
}

/**
 * An app of one test's own, closed when that test ends (`t.after`): for a test that needs other
 * settings than its file's app, or an app it may stop, restart or crash.
 */
export async function appForTest(
  t: TestContext,
  env: Record<string, string> = {},
  options: Pick<BuildOptions, "spanExporter" | "now"> = {},
): Promise<TestApp> {
  const app = await buildTestApp(env, options);
  t.after(() => app.close());
  return app;
}
