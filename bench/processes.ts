import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

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
