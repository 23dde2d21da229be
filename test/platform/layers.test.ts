// The platform is what modules stand on: it never reaches up into a module. A platform file that
// needs a module's data takes it as a parameter or a hook, chosen where the service is put together
// (src/app.ts); the table list drizzle-kit reads is src/schema.ts, above both.
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";

const ROOT = path.resolve("src");

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : [path.join(dir, e.name)])),
  );
  return nested.flat().filter((file) => file.endsWith(".ts"));
}

const SPECIFIER = /(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g;

test("no file under src/platform imports from src/modules (or from the top level)", async () => {
  const offenders: string[] = [];
  for (const file of await sources(path.join(ROOT, "platform"))) {
    const text = await readFile(file, "utf8");
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2];
      if (!specifier.startsWith(".")) continue;
      const target = path.resolve(path.dirname(file), specifier);
      const inPlatform = target.startsWith(path.join(ROOT, "platform") + path.sep);
      // The platform may read the configuration's types (src/config*); nothing else above it.
      const isConfig = /^config(\.ts|\/)/.test(path.relative(ROOT, target));
      if (!inPlatform && !isConfig) offenders.push(`${path.relative(".", file)} -> ${specifier}`);
    }
  }
  assert.deepEqual(offenders, []);
});

// Modules stand on one another one way: a module that needs an answer from one built on it takes
// a hook in Deps (`referrers`, `onDeferredPayment`, `moneyInFlight`), wired in src/app.ts.
test("no module imports, directly or through others, a module that imports it", async () => {
  const modulesDir = path.join(ROOT, "modules");
  const moduleOf = (file: string) => path.relative(modulesDir, file).split(path.sep)[0];
  const edges = new Map<string, Map<string, string>>(); // module -> imported module -> an example
  for (const file of await sources(modulesDir)) {
    const text = await readFile(file, "utf8");
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2];
      if (!specifier.startsWith(".")) continue;
      const target = path.resolve(path.dirname(file), specifier);
      if (!target.startsWith(modulesDir + path.sep)) continue;
      const [from, to] = [moduleOf(file), moduleOf(target)];
      if (from === to) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      edges.get(from)!.set(to, `${path.relative(".", file)} -> ${specifier}`);
    }
  }
  // A depth-first search; a module met again on the current path closes a loop.
  const loops: string[] = [];
  const done = new Set<string>();
  const visit = (module: string, trail: string[]) => {
    if (trail.includes(module)) {
      const loop = trail.slice(trail.indexOf(module));
      loops.push(
        [...loop, module]
          .map((m, i) => (i < loop.length ? edges.get(m)!.get([...loop, module][i + 1])! : m))
          .join("\n  "),
      );
      return;
    }
    if (done.has(module)) return;
    for (const next of edges.get(module)?.keys() ?? []) visit(next, [...trail, module]);
    done.add(module);
  };
  for (const module of edges.keys()) visit(module, []);
  assert.deepEqual(loops, []);
});

// A module's tables are its own: another module reads or writes them only through the functions
// and statement parts the owner offers (`for-<consumer>.ts`, `queries.ts`: a join part or a
// subquery keeps a caller's one statement one), and points a foreign key at one only through the
// owner's `references.ts` (its primary key alone). There is no exception, tables.ts included; a
// module does not re-export its tables either. docs/decisions.md says why.
function foreignTableImports(modulesDir: string, files: { file: string; text: string }[]): string[] {
  const moduleOf = (file: string) => path.relative(modulesDir, file).split(path.sep)[0];
  const offenders: string[] = [];
  for (const { file, text } of files) {
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2];
      if (!specifier.startsWith(".")) continue;
      const target = path.resolve(path.dirname(file), specifier);
      if (!target.startsWith(modulesDir + path.sep) || path.basename(target) !== "tables.ts") continue;
      const foreign = moduleOf(target) !== moduleOf(file);
      const reexported = /^\s*export\b/.test(match[0]) && path.basename(file) !== "tables.ts";
      if (foreign || reexported) offenders.push(`${path.relative(".", file)} -> ${specifier}`);
    }
  }
  return offenders;
}

test("no module imports another module's tables.ts (or re-exports its own)", async () => {
  const modulesDir = path.join(ROOT, "modules");
  const files = await Promise.all(
    (await sources(modulesDir)).map(async (file) => ({ file, text: await readFile(file, "utf8") })),
  );
  assert.deepEqual(foreignTableImports(modulesDir, files), []);
});

test("control: the table check finds every form of a foreign tables.ts import", () => {
  const modulesDir = path.join(ROOT, "modules");
  const at = (file: string) => path.join(modulesDir, file);
  const samples = [
    { file: at("auctions/closing.ts"), text: 'import { prices } from "../prices/tables.ts";' },
    { file: at("payments/presenters.ts"), text: 'import type {\n  prices,\n} from "../prices/tables.ts";' },
    { file: at("kyc/widget.ts"), text: 'const { apps } = await import("../apps/tables.ts");' },
    { file: at("prices/tables.ts"), text: 'import { apps } from "../../modules/apps/tables.ts";' },
    { file: at("prices/queries.ts"), text: 'export { prices } from "./tables.ts";' },
    // Allowed: a module's own tables, and what another module offers.
    { file: at("prices/service.ts"), text: 'import { prices } from "./tables.ts";' },
    { file: at("auctions/service.ts"), text: 'import { findPrice } from "../prices/queries.ts";' },
    { file: at("prices/tables.ts"), text: 'import { appPrimaryKey } from "../apps/references.ts";' },
  ];
  const found = foreignTableImports(modulesDir, samples).map((offender) => offender.split(" -> ")[1]);
  assert.deepEqual(found, [
    "../prices/tables.ts",
    "../prices/tables.ts",
    "../apps/tables.ts",
    "../../modules/apps/tables.ts",
    "./tables.ts",
  ]);
});
