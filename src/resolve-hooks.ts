// Loaded before the app by `node --import` (`npm start`, `npm test`): a module resolution hook that
// answers relative imports between the ES module files of an installed package itself, instead of
// Node's resolver. Why: Node 24's resolver looks up the package scope of every `.js` file it
// resolves and copies that package.json's fields, which parses the whole `exports` map again each
// time (node:internal/modules/package_json_reader, `getPackageScopeConfig`). drizzle-orm's
// package.json is 179 KB and the app loads hundreds of its files, viem's and ox's add more: 1.2 s
// of CPU at every start of a process on the development machine, most of a test file's module
// loading (docs/benchmarks.md, "Test start-up"). The answer is the one Node gives: the file next
// to its importer, an ES module because its nearest package.json says `"type": "module"`, or
// because its name ends in `.mjs` (TypeBox's 373 files, each of which made Node look up its package
// scope again: about 70 ms of CPU at a test file's start, docs/benchmarks.md, "Where CI's
// PostgreSQL pass spends its CPU").
// Package imports from the project's own files are resolved by Node once per process and the
// answer reused for every other file (each import of `drizzle-orm` parsed its exports map again).
// Anything else (other extensions, CommonJS, imports between the project's files) goes to Node's
// resolver untouched.
import { readFileSync } from "node:fs";
import { registerHooks } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const typeOfDirectory = new Map<string, string>();

/** The `type` of the package.json nearest to `directory` ("none" when it has none), cached per directory. */
export function packageTypeOf(directory: string): string {
  let type = typeOfDirectory.get(directory);
  if (type !== undefined) return type;
  try {
    type = String(JSON.parse(readFileSync(path.join(directory, "package.json"), "utf8")).type ?? "none");
  } catch (error) {
    const parent = path.dirname(directory);
    type =
      (error as NodeJS.ErrnoException).code === "ENOENT" && parent !== directory
        ? packageTypeOf(parent)
        : "none";
  }
  typeOfDirectory.set(directory, type);
  return type;
}

/**
 * The URL of `specifier` imported from `parentURL` when the hook answers it (a relative `.js`
 * import between files of an installed ES module package, or a relative `.mjs` import inside any
 * installed package), else undefined: Node resolves it.
 */
export function installedModuleUrl(
  specifier: string,
  parentURL: string | undefined,
  conditions: readonly string[] | undefined,
): string | undefined {
  if (!parentURL?.startsWith("file:") || !parentURL.includes("/node_modules/")) return undefined;
  if (!(specifier.startsWith("./") || specifier.startsWith("../"))) return undefined;
  const mjs = specifier.endsWith(".mjs");
  if (!mjs && !specifier.endsWith(".js")) return undefined;
  // `import`, not `require`: a require of the same text resolves by CommonJS rules.
  if (!conditions?.includes("import")) return undefined;
  const url = new URL(specifier, parentURL);
  if (mjs) return url.href;
  return packageTypeOf(path.dirname(fileURLToPath(url))) === "module" ? url.href : undefined;
}

/** The project's own source folders: a package name imported from any of them means the same package. */
const ROOT = new URL("..", import.meta.url).href;
const PROJECT_FOLDERS = ["src/", "test/", "bench/", "scripts/"].map((folder) => ROOT + folder);

/**
 * Whether a package import (`drizzle-orm`, `viem/utils`) from `parentURL` resolves as it does from
 * every other file of the project: the project's files all find packages in its one node_modules.
 */
export function isProjectPackageImport(specifier: string, parentURL: string | undefined): boolean {
  if (!parentURL || parentURL.includes("/node_modules/")) return false;
  if (!PROJECT_FOLDERS.some((folder) => parentURL.startsWith(folder))) return false;
  return !/^(\.|\/|#|[a-z][a-z0-9+.-]*:)/i.test(specifier);
}

type Resolved = { url: string; format?: string | null };
/** Package imports from the project's files, resolved once per process (by specifier and conditions). */
const packageImports = new Map<string, Resolved>();

registerHooks({
  resolve(specifier, context, nextResolve) {
    const url = installedModuleUrl(specifier, context.parentURL, context.conditions);
    if (url) return { url, format: "module", shortCircuit: true };
    if (!isProjectPackageImport(specifier, context.parentURL)) return nextResolve(specifier, context);
    // Each of the project's files that imports a package made Node read and parse that package's
    // package.json `exports` again: the first answer is kept and given to the others.
    const key = `${specifier}\u0000${context.conditions?.join(",")}`;
    let resolved = packageImports.get(key);
    if (!resolved) {
      const { url, format } = nextResolve(specifier, context);
      resolved = { url, format };
      packageImports.set(key, resolved);
    }
    return { ...resolved, shortCircuit: true };
  },
});
