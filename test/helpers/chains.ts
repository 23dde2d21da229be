import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { loadChainsConfig } from "../../src/config.ts";

const require = createRequire(import.meta.url);

/** Chain settings as the service would load them, with overrides. */
export function chainsConfig(env: Record<string, string> = {}) {
  return loadChainsConfig(env);
}

/** A controllable clock for adapters and the sandbox. */
export function manualClock(start = new Date("2026-01-01T00:00:00Z")) {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(seconds: number) {
      now += seconds * 1000;
    },
  };
}

export interface Anvil {
  url: string;
  rpc(method: string, params?: unknown[]): Promise<any>;
  stop(): Promise<void>;
}

/**
 * Starts anvil from Foundry's npm platform package (`@foundry-rs/anvil-linux-amd64`, the binary
 * the `@foundry-rs/anvil` wrapper would pick) on a port the OS picks, and answers once it listens.
 * `blockSeconds` mines a block on that interval, as a live chain does, instead of one per transaction.
 */
export async function startAnvil(options: { blockSeconds?: number } = {}): Promise<Anvil> {
  const platformPackage = `@foundry-rs/anvil-${process.platform}-${process.arch === "x64" ? "amd64" : process.arch}`;
  let binary: string;
  try {
    binary = require.resolve(`${platformPackage}/bin/anvil`);
  } catch {
    // Only the linux x64 package is a dependency (the registry this project uses lacks the others).
    throw new Error(
      `anvil is not installed for this platform: add ${platformPackage} to optionalDependencies`,
    );
  }
  const args = ["--host", "127.0.0.1", "--port", "0", "--chain-id", "31337"];
  if (options.blockSeconds) args.push("--block-time", String(options.blockSeconds));
  const child: ChildProcess = spawn(binary, args, {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`anvil did not start: ${out}`)), 20_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Listening on (127\.0\.0\.1:\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(`http://${match[1]}`);
      }
    });
    child.once("exit", (code) => reject(new Error(`anvil exited with ${code}: ${out}`)));
  });
  child.stdout!.resume();
  child.stderr!.resume();
  let id = 0;
  return {
    url,
    async rpc(method, params = []) {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
      });
      const body = (await response.json()) as { result?: unknown; error?: { message: string } };
      if (body.error) throw new Error(`${method}: ${body.error.message}`);
      return body.result;
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Compiles a contract under contracts/ with solc-js. */
export function compileContract(file: string, name: string): { abi: any[]; bytecode: `0x${string}` } {
  const solc = require("solc");
  const source = readFileSync(path.join(import.meta.dirname, "../../contracts", file), "utf8");
  const input = {
    language: "Solidity",
    sources: { [file]: { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode"] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e: any) => e.severity === "error");
  if (errors.length) throw new Error(errors.map((e: any) => e.formattedMessage).join("\n"));
  const contract = output.contracts[file][name];
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}
