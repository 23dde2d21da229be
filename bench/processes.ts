import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import pg from "pg";

/**
 * Starts a script that prints a `{"ready": …}` line once it serves; answers that line and a stop.
 * `cwd` runs another checkout's script with its own node_modules (bench/ab.ts).
 */
export async function startChild<T>(script: string, env: Record<string, string>, cwd?: string) {
  const child = spawn(process.execPath, [script], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  const ready = await new Promise<T>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
    lines.on("line", (line) => {
      if (line.startsWith('{"ready"')) resolve(JSON.parse(line));
    });
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return { ready, stop, pid: child.pid! };
}

/**
 * A fresh database for one server process, and its removal: a new PostgreSQL database beside
 * `serverUrl`'s (named `<label>_<time>`) when a server is named, else an empty PGlite data dir.
 * `env` is what the process needs to use it.
 */
export async function freshDatabase(
  serverUrl: string | undefined,
  label: string,
): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (!serverUrl) {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `${label.replaceAll("_", "-")}-data-`));
    return {
      env: { DATABASE_URL: "", DATA_DIR: dataDir },
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `${label}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: target.toString() },
    drop: async () => {
      // BENCH_KEEP_DATABASE=1 leaves it for a look afterwards (its statistics, its indexes).
      if (process.env.BENCH_KEEP_DATABASE) {
        console.log(`kept the database ${name}`);
        await admin.end();
        return;
      }
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
