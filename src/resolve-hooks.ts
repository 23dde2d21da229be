// Loaded before the app by `node --import` (`npm start`, `npm test`): a module resolution hook that
// answers relative imports between the ES module files of an installed package itself, instead of
// Node's resolver. Why: Node 24's resolver looks up the package scope of every `.js` file it
// resolves and copies that package.json's fields, which parses the whole `exports` map again each
// time (node:internal/modules/package_json_reader, `getPackageScopeConfig`). drizzle-orm's
// package.json is 179 KB and the app loads hundreds of its files, viem's and ox's add more: 1.1 s
// of CPU at every start of a process on the development machine, most of a test file's module
// loading (docs/benchmarks.md, "Test start-up"). The answer is the one Node gives: the file next
// to its importer, an ES module because its nearest package.json says `"type": "module"`.
// Anything else (bare specifiers, other extensions, CommonJS, the project's own files) goes to
// Node's resolver untouched.
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
 * import between files of an installed ES module package), else undefined: Node resolves it.
 */
export function installedModuleUrl(
  specifier: string,
  parentURL: string | undefined,
  conditions: readonly string[] | undefined,
): string | undefined {
  if (!parentURL?.startsWith("file:") || !parentURL.includes("/node_modules/")) return undefined;
  if (!(specifier.startsWith("./") || specifier.startsWith("../")) || !specifier.endsWith(".js"))
    return undefined;
  // `import`, not `require`: a require of the same text resolves by CommonJS rules.
  if (!conditions?.includes("import")) return undefined;
  const url = new URL(specifier, parentURL);
  return packageTypeOf(path.dirname(fileURLToPath(url))) === "module" ? url.href : undefined;
}

registerHooks({
  resolve(specifier, context, nextResolve) {
    const url = installedModuleUrl(specifier, context.parentURL, context.conditions);
    return url ? { url, format: "module", shortCircuit: true } : nextResolve(specifier, context);
  },
});
