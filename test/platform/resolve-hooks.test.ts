// The start-up resolution hook (src/resolve-hooks.ts) answers only relative `.js` imports between
// the files of an installed ES module package and relative `.mjs` imports inside any installed
// package, with the URL Node itself would give, and leaves everything else to Node.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { installedModuleUrl, isProjectPackageImport } from "../../src/resolve-hooks.ts";

const IMPORT = ["node", "import"];
/** An `.mjs` file in `dir` importing another. */
const mjsImporterIn = (dir: string) => pathToFileURL(path.join(dir, "index.mjs")).href;

test("answers relative .js imports inside an installed ES module package, .mjs ones inside any, and nothing else", (t) => {
  const root = mkdtempSync(path.join(os.tmpdir(), "resolve-hooks-"));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const pkg = path.join(root, "node_modules", "esm-package");
  mkdirSync(path.join(pkg, "lib"), { recursive: true });
  mkdirSync(path.join(pkg, "cjs"), { recursive: true });
  writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "esm-package", type: "module" }));
  // A folder of CommonJS files inside an ES module package, as dual packages ship them.
  writeFileSync(path.join(pkg, "cjs", "package.json"), JSON.stringify({ type: "commonjs" }));
  const typeless = path.join(root, "node_modules", "typeless");
  mkdirSync(typeless, { recursive: true });
  writeFileSync(path.join(typeless, "package.json"), JSON.stringify({ name: "typeless" }));
  const parent = pathToFileURL(path.join(pkg, "index.js")).href;

  assert.equal(
    installedModuleUrl("./lib/column.js", parent, IMPORT),
    pathToFileURL(path.join(pkg, "lib", "column.js")).href,
  );
  assert.equal(
    installedModuleUrl("../index.js", pathToFileURL(path.join(pkg, "lib", "a.js")).href, IMPORT),
    parent,
  );
  // An `.mjs` file is an ES module whatever its package says (TypeBox ships hundreds of them).
  assert.equal(
    installedModuleUrl("./lib/type.mjs", mjsImporterIn(typeless), IMPORT),
    pathToFileURL(path.join(typeless, "lib", "type.mjs")).href,
  );
  assert.equal(installedModuleUrl("./lib/type.mjs", parent, ["node", "require"]), undefined);
  assert.equal(installedModuleUrl("./lib/type.cjs", parent, IMPORT), undefined);
  // Node decides: CommonJS files, a package without a type, bare and extensionless specifiers, a
  // require, and the project's own files.
  assert.equal(installedModuleUrl("./cjs/index.js", parent, IMPORT), undefined);
  const typelessParent = pathToFileURL(path.join(typeless, "index.js")).href;
  assert.equal(installedModuleUrl("./a.js", typelessParent, IMPORT), undefined);
  assert.equal(installedModuleUrl("drizzle-orm", parent, IMPORT), undefined);
  assert.equal(installedModuleUrl("./lib/column", parent, IMPORT), undefined);
  assert.equal(installedModuleUrl("./lib/column.js", parent, ["node", "require"]), undefined);
  assert.equal(
    installedModuleUrl("./db.ts", pathToFileURL(path.resolve("src/app.ts")).href, IMPORT),
    undefined,
  );
  assert.equal(installedModuleUrl("./a.js", undefined, IMPORT), undefined);
});

test("package imports are shared only between the project's own files", () => {
  const own = (file: string) => pathToFileURL(path.resolve(file)).href;
  assert.equal(isProjectPackageImport("drizzle-orm", own("src/app.ts")), true);
  assert.equal(isProjectPackageImport("@electric-sql/pglite/vector", own("test/helpers/app.ts")), true);
  // A workspace package (the SDK, the console) has node_modules of its own; an installed package
  // finds its own dependencies' versions; relative, absolute, `#` and `node:` imports are not packages.
  assert.equal(isProjectPackageImport("react", own("dashboard/src/main.tsx")), false);
  assert.equal(isProjectPackageImport("ox", own("node_modules/viem/_esm/index.js")), false);
  for (const specifier of ["./db.ts", "../x.ts", "/abs.js", "#internal", "node:fs", "file:///x.js"]) {
    assert.equal(isProjectPackageImport(specifier, own("src/app.ts")), false, specifier);
  }
  assert.equal(isProjectPackageImport("drizzle-orm", undefined), false);
});

test("the app's libraries load through the hook as they do without it", () => {
  // The same modules, the same exports, under a process started as `npm start` starts one: Drizzle
  // and viem (`.js` files of ES module packages) and TypeBox (`.mjs` files).
  const scripts = [
    "const m = await import('drizzle-orm/pg-core'); const v = await import('viem');" +
      "console.log(typeof m.pgTable, typeof v.parseEther, Object.keys(m).length, Object.keys(v).length)",
    "const t = await import('typebox'); const c = await import('typebox/compile');" +
      "console.log(typeof t.Type.Object, typeof c.Compile, Object.keys(t).length, Object.keys(c).length)",
  ];
  const run = (args: string[], script: string) =>
    execFileSync(process.execPath, [...args, "--input-type=module", "-e", script], {
      encoding: "utf8",
    }).trim();
  for (const script of scripts) {
    const hooked = run(["--import", "./src/resolve-hooks.ts"], script);
    assert.match(hooked, /^function function \d+ \d+$/);
    assert.equal(hooked, run([], script));
  }
});
