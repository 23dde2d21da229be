import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/** The service run as an operator runs it (`npm start`'s command), in a process of its own. */
export interface Running {
  child: ChildProcess;
  exited: Promise<{ code: number | null; signal: string | null }>;
  output: () => string;
}

export function runService(env: Record<string, string>): Running {
  const child = spawn(process.execPath, ["--import", "./src/resolve-hooks.ts", "src/main.ts"], {
    env: { ...process.env, SANDBOX: "true", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr!.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, output: () => output };
}

export async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`timed out waiting for ${what}`);
}

/** A JSON call over real HTTP. */
export async function http(base: string, method: string, url: string, token?: string, body?: unknown) {
  const answer = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json().catch(() => null)) as any };
}

/**
 * A fresh database for processes to share: a PGlite data directory, or with DATABASE_URL a new
 * PostgreSQL database next to the one named (`url` is its connection string).
 */
export async function sharedDatabase(): Promise<{
  env: Record<string, string>;
  url: string | undefined;
  drop: () => Promise<void>;
}> {
  if (!process.env.DATABASE_URL) {
    const dir = mkdtempSync(path.join(os.tmpdir(), "service-"));
    return {
      env: { DATA_DIR: dir },
      url: undefined,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `t_proc_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
