import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export interface CrashingApi {
  base: string;
  /** The signal the process died of. */
  exited: Promise<NodeJS.Signals | null>;
  stop(): void;
}

/**
 * An API process (test/fixtures/api.ts) on the PostgreSQL database named, that kills itself at the
 * fault point named. It listens on a port the kernel picks and says which: a port chosen free here
 * and bound there later could be taken in between by another test file running beside this one,
 * and the process then died before it was ready while its test waited for it.
 */
export async function startCrashingApi(databaseUrl: string, point: string): Promise<CrashingApi> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "crash-"));
  const child = spawn(process.execPath, ["test/fixtures/api.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SANDBOX: "true",
      PORT: "0",
      FAULT_CRASH_AT: point,
      FAULT_MARKER: path.join(dir, "marker"),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once("exit", (_code, signal) => resolve(signal)),
  );
  const stop = () => {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const base = await new Promise<string>((resolve, reject) => {
      let said = "";
      child.stdout!.on("data", (chunk) => {
        said += String(chunk);
        const ready = said.match(/api ready at (\S+)/);
        if (ready) resolve(ready[1]);
      });
      child.once("exit", (code, signal) =>
        reject(new Error(`the API process exited before it was ready (${signal ?? code})`)),
      );
    });
    return { base, exited, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
