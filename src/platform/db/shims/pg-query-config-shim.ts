/*
 * PERFORMANCE SHIM: a statement's query config, an object literal, is copied as one.
 *
 * What: every statement sent through pg builds a `Query` (pg/lib/query.js), whose constructor first
 * calls `utils.normalizeQueryConfig` (pg/lib/utils.js). Since pg 8.23 that copies the caller's
 * config so as not to add `values` and `callback` to it, and copies it the thorough way, with
 * `Object.getOwnPropertyDescriptors` and `Object.defineProperties` onto an object of the same
 * prototype, so that a config whose fields are getters on a class keeps them. Drizzle, pg-boss and
 * the service's own clients (src/platform/db/open.ts) send object literals, for which that copy
 * and an object spread make the same object: their own properties are enumerable data properties
 * on `Object.prototype`. `installPgQueryConfigShim` replaces `normalizeQueryConfig` on pg's `utils`
 * with one that copies a config whose prototype is `Object.prototype` by spreading it, and hands
 * every other config (a string, a class instance, a submittable) to pg's own. The caller's object is
 * left as it was in both. It relies on `Query`'s constructor calling `utils.normalizeQueryConfig`
 * through the module's exports, as pg 8.23.1 does, and on nothing else calling it.
 * Upstream has the same fix under review (node-postgres pull request 3743, "Normalize query config
 * without copying it"); once a release carries it, this file goes.
 *
 * Why, as measured (docs/benchmarks.md, "A statement's config copied as a literal"): building a
 * `Query` from Drizzle's config cost about 2 µs, nearly all of it the copy; a CPU profile of
 * `GET /apps/{app_id}` on PostgreSQL (`BENCH_DATABASE_URL=… npm run bench:profile -- app 10`) put
 * pg's `cloneQueryConfig` at 2.4% of the route's busy samples, the heaviest function of the
 * service's own process after the two socket writes. The figures with the shim are in that section.
 *
 * Written against: pg 8.23.1 (`PINNED_VERSION`; the version in package-lock.json).
 *
 * On upgrade: test/platform/pg-query-config-shim.test.ts fails first, naming this file. Then
 * 1. see whether the new pg still copies the config with property descriptors (upstream pull
 *    request 3743); if it no longer does, delete this file and its call in
 *    src/platform/db/open.ts;
 * 2. else diff pg's `normalizeQueryConfig` with `normalizeQueryConfig` below, run the test, and
 *    move `PINNED_VERSION`.
 */
import { createRequire } from "node:module";

/** The pg version this shim was written and measured against (see the comment above). */
export const PINNED_VERSION = "8.23.1";

type Normalize = (config: unknown, values?: unknown, callback?: unknown) => Record<string, unknown>;

// pg's own utils module: the object its Query constructor reads `normalizeQueryConfig` from.
const requireFromPg = createRequire(createRequire(import.meta.url).resolve("pg"));
const utils = requireFromPg("./utils.js") as { normalizeQueryConfig: Normalize };
const pgNormalize = utils.normalizeQueryConfig;

function normalizeQueryConfig(config: unknown, values?: unknown, callback?: unknown) {
  if (typeof config !== "object" || config === null || Object.getPrototypeOf(config) !== Object.prototype) {
    return pgNormalize(config, values, callback);
  }
  // As pg's own does after its copy: values, or a callback in their place, and a callback.
  const normalized: Record<string, unknown> = { ...config };
  if (values) {
    if (typeof values === "function") normalized.callback = values;
    else normalized.values = values;
  }
  if (callback) normalized.callback = callback;
  return normalized;
}

/** Puts the shim's `normalizeQueryConfig` on pg's utils (once per process; nothing else changes). */
export function installPgQueryConfigShim(): void {
  utils.normalizeQueryConfig = normalizeQueryConfig;
}

/** pg's own `normalizeQueryConfig`, for the test that compares the two. */
export function uninstallPgQueryConfigShim(): void {
  utils.normalizeQueryConfig = pgNormalize;
}
