// Builds what ships: dist/esm (ES modules) and dist/cjs (CommonJS), each with its .d.ts, by
// TypeScript's own compiler, twice. tsc over tsup: TypeScript is already a dependency of the
// repository, it writes declarations that match each format without a bundler, and it downloads
// nothing. `rewriteRelativeImportExtensions` turns the source's `./x.ts` imports into `./x.js`.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const project = join(here, "tsconfig.build.json");
rmSync(join(here, "dist"), { recursive: true, force: true });
const run = (...args) => execFileSync(process.execPath, [tsc, "-p", project, ...args], { stdio: "inherit" });
run();
// The same source, checked once above: the CommonJS emit skips the second type-check.
run("--module", "commonjs", "--moduleResolution", "node10", "--noCheck", "--outDir", join(here, "dist/cjs"));
// The nearest package.json decides how Node (and TypeScript) read a .js/.d.ts: CommonJS here.
writeFileSync(join(here, "dist/cjs/package.json"), '{ "type": "commonjs" }\n');
// tsc keeps `./x.ts` in declarations; a consumer's tsc refuses those (TS5097) unless it allows
// them, so each declaration names the `.js` file beside it, as the JavaScript does.
for (const format of ["esm", "cjs"]) {
  const dir = join(here, "dist", format);
  for (const name of readdirSync(dir).filter((file) => file.endsWith(".d.ts"))) {
    const file = join(dir, name);
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.replace(/(["'])(\.\.?\/[^"']+)\.ts\1/g, "$1$2.js$1"));
  }
}
