// A git ref checked out beside the working tree, for the benchmarks that set two versions of the
// code side by side (bench/ab.ts, bench/instructions.ts).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const git = (...args: string[]) => execFileSync("git", args, { encoding: "utf8" }).trim();

/** The commit `ref` names; throws when it names none. */
export const commitOf = (ref: string) => git("rev-parse", "--verify", `${ref}^{commit}`);

/**
 * Commit `sha` in a worktree of its own with installed packages. npm ci takes minutes on a busy
 * machine, so when the ref's lock file is the working tree's, the installed packages are
 * hard-linked instead (`cp -al`: no bytes copied, and nothing written in place afterwards).
 * `keep`: a checkout left by an earlier run of the same commit is used again.
 */
export function checkout(sha: string, label: string, keep = false): string {
  const dir = path.join(os.tmpdir(), `${label}-${sha.slice(0, 12)}`);
  if (keep && existsSync(path.join(dir, "node_modules"))) return dir;
  removeCheckout(dir);
  git("worktree", "add", "--detach", dir, sha);
  const sameLock =
    git("show", `${sha}:package-lock.json`) === readFileSync("package-lock.json", "utf8").trim();
  if (sameLock) {
    console.log(`${sha.slice(0, 12)}: same package-lock.json, node_modules hard-linked`);
    for (const modules of ["node_modules", "dashboard/node_modules"]) {
      if (existsSync(modules) && existsSync(path.dirname(path.join(dir, modules)))) {
        execFileSync("cp", ["-al", modules, path.join(dir, modules)]);
      }
    }
  } else {
    console.log(`${sha.slice(0, 12)}: package-lock.json differs, npm ci in ${dir} (minutes)`);
    execFileSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: dir, stdio: "inherit" });
  }
  return dir;
}

export function removeCheckout(dir: string) {
  if (!existsSync(dir)) return;
  try {
    git("worktree", "remove", "--force", dir);
  } catch {
    rmSync(dir, { recursive: true, force: true });
    git("worktree", "prune");
  }
}
