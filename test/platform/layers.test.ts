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
