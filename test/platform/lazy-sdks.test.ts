// A process loads a chain's SDK only when it first uses that chain: the sandbox service, and every
// test file, check addresses and build the app without viem, @solana/kit, @near-js or @wharfkit,
// which were about half of a process's module loading (docs/benchmarks.md, "Chain SDKs loaded when
// first used").
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { test } from "node:test";
import { promisify } from "node:util";

const run = promisify(execFile);
const ROOT = new URL("../../", import.meta.url);
const CHAIN_SDKS = /^(viem|@solana\/kit|@solana-program\/|@near-js\/|@wharfkit\/|stripe$)/;

/** The installed packages a fresh process loads while it imports `files`, in the order given. */
async function packagesLoadedBy(...files: string[]): Promise<string[]> {
  const urls = files.map((file) => new URL(file, ROOT).href);
  const script = `
    import { registerHooks } from "node:module";
    const loaded = new Set();
    registerHooks({
      load(url, context, next) {
        const found = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(url);
        if (found) loaded.add(found[1]);
        return next(url, context);
      },
    });
    for (const url of ${JSON.stringify(urls)}) await import(url);
    console.log(JSON.stringify([...loaded]));`;
  const { stdout } = await run(
    process.execPath,
    ["--import", new URL("src/resolve-hooks.ts", ROOT).href, "--input-type=module", "-e", script],
    { cwd: ROOT },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "[]");
}

test("the app, its address checks and its routes load no chain SDK", async () => {
  const loaded = await packagesLoadedBy("src/app.ts", "src/platform/chains/accounts.ts");
  assert.ok(loaded.includes("fastify"), `the app was loaded: ${loaded.join(", ")}`);
  assert.ok(loaded.includes("ox"), "EVM addresses are checked with ox's address module");
  assert.deepEqual(
    loaded.filter((name) => CHAIN_SDKS.test(name)),
    [],
    "a chain's SDK is loaded only when that chain is first used",
  );
});

test("control: the real adapters do load them", async () => {
  const loaded = await packagesLoadedBy("src/platform/chains/real.ts");
  for (const sdk of ["viem", "@solana/kit", "@wharfkit/antelope"]) {
    assert.ok(loaded.includes(sdk), `${sdk} in ${loaded.join(", ")}`);
  }
  assert.ok(loaded.some((name) => name.startsWith("@near-js/")));
});
