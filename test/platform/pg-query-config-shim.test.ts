import assert from "node:assert/strict";
import { after, test } from "node:test";
import {
  installPgQueryConfigShim,
  PINNED_VERSION,
  uninstallPgQueryConfigShim,
} from "../../src/platform/db/shims/pg-query-config-shim.ts";
import { assertPgPinned, fingerprint, requireFromPg } from "../helpers/shims.ts";

// src/platform/db/shims/pg-query-config-shim.ts replaces pg's `utils.normalizeQueryConfig`: its
// version is the one it was written against, pg's Query still reads the function from there, and a
// Query built through it holds what one built through pg's own holds, for every kind of config,
// with the caller's object left as it was.

const SHIM = "src/platform/db/shims/pg-query-config-shim.ts";
type Normalize = (config: unknown, values?: unknown, callback?: unknown) => object;
const utils = requireFromPg("./utils.js") as { normalizeQueryConfig: Normalize };
const Query = requireFromPg("./query.js") as new (
  config: unknown,
  values?: unknown,
  callback?: unknown,
) => Record<string, unknown>;
const found = utils.normalizeQueryConfig;
// The file shares its process with others (npm test's lanes): the function goes back as it was.
after(() => {
  utils.normalizeQueryConfig = found;
});

test("the pg query config shim is on the pg version it was written against, where pg's Query reads it", () => {
  assertPgPinned(SHIM, PINNED_VERSION);
  uninstallPgQueryConfigShim();
  try {
    // A new digest means pg normalizes a config differently: compare the shim with it again.
    assert.equal(
      fingerprint(utils.normalizeQueryConfig),
      "a973508ad553f81f",
      `${SHIM}: pg's normalizeQueryConfig changed`,
    );
  } finally {
    installPgQueryConfigShim();
  }
  // The constructor calls it through the module's exports, so the replaced one is the one called.
  let calls = 0;
  const shim = utils.normalizeQueryConfig;
  utils.normalizeQueryConfig = (...args) => {
    calls++;
    return shim(...args);
  };
  try {
    new Query({ text: "select 1" });
  } finally {
    utils.normalizeQueryConfig = shim;
  }
  assert.equal(calls, 1, `${SHIM}: pg's Query no longer calls utils.normalizeQueryConfig`);
});

/** What a Query holds of its config, as its constructor and its runs read it. */
function held(query: Record<string, unknown>) {
  const { text, values, rows, types, name, queryMode, binary, portal, callback, _rowMode } = query;
  const rowAsArray = (query._result as { rowAsArray: boolean }).rowAsArray;
  return { text, values, rows, types, name, queryMode, binary, portal, callback, _rowMode, rowAsArray };
}

test("a Query built through the shim holds what pg's own builds, and the caller's config is left as it was", () => {
  const types = { getTypeParser: () => (value: string) => value };
  const done = () => {};
  class Getters {
    get text() {
      return "select 3";
    }
    get name() {
      return "by_getter";
    }
  }
  // Each kind of call pg takes: as Drizzle and the service's clients send them, values apart or in
  // the config, a callback in place of values or after them, a string, and a class instance whose
  // fields are getters (pg's own copy keeps those; the shim hands such a config to it).
  const calls: [label: string, make: () => [config: unknown, values?: unknown, callback?: unknown]][] = [
    ["Drizzle's", () => [{ name: "s1", text: "select $1", rowMode: "array", types }, ["a"]]],
    ["values inside", () => [{ text: "select $1", values: [1], rows: 10, portal: "p" }]],
    ["a callback for values", () => [{ text: "select 1", queryMode: "extended", binary: false }, done]],
    ["values and a callback", () => [{ text: "select $1" }, [2], done]],
    ["a string", () => ["select 2", [3]]],
    ["getters on a class", () => [new Getters(), [4]]],
  ];
  for (const [label, make] of calls) {
    uninstallPgQueryConfigShim();
    const [ownConfig, ownValues, ownCallback] = make();
    const own = held(new Query(ownConfig, ownValues, ownCallback));
    installPgQueryConfigShim();
    const [config, values, callback] = make();
    const before = typeof config === "object" ? { ...(config as object) } : config;
    const shim = held(new Query(config, values, callback));
    assert.deepEqual(shim, own, label);
    if (typeof config === "object")
      assert.deepEqual({ ...(config as object) }, before, `${label}: config unchanged`);
  }
  uninstallPgQueryConfigShim();
  const byGetters = held(new Query(new Getters()));
  installPgQueryConfigShim();
  assert.equal(byGetters.text, "select 3", "pg's own copy keeps a class's getters");
  assert.equal(
    held(new Query(new Getters())).name,
    "by_getter",
    "and so does a Query built with the shim on",
  );
});
