// The SDK as an integrator gets it: `npm pack`ed (which builds it), then installed from the tarball
// into an empty folder, offline. Packed from a copy of sdk/, so test files that pack at the same
// time never write one dist/ together.
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The machine's other Node (v20 here; the tests themselves run on node_modules' v24). */
export const OTHER_NODE = process.env.OTHER_NODE ?? "/usr/bin/node";

/** Packs sdk/ and installs the tarball into a fresh folder; answers the folder. */
export async function installPackedSdk(): Promise<string> {
  const work = await mkdtemp(join(tmpdir(), "sdk-pack-"));
  const copy = join(work, "sdk");
  await mkdir(copy);
  for (const name of ["package.json", "README.md", "build.mjs", "tsconfig.build.json", "src"]) {
    await cp(join(ROOT, "sdk", name), join(copy, name), { recursive: true });
  }
  // The build's TypeScript is the repository's.
  await symlink(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
  await run("npm", ["pack", "--silent", "--pack-destination", work], { cwd: copy, timeout: 180_000 });
  const tarball = (await readdir(work)).find((name) => name.endsWith(".tgz"));
  if (!tarball) throw new Error("npm pack wrote no tarball");
  const project = join(work, "project");
  await mkdir(project);
  await writeFile(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  await run(
    "npm",
    ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", join(work, tarball)],
    { cwd: project, timeout: 120_000 },
  );
  return project;
}

/** Runs a program with the other Node in the project; answers its output. */
export async function runWithOtherNode(project: string, file: string, env: Record<string, string>) {
  const { stdout } = await run(OTHER_NODE, [file], {
    cwd: project,
    env: { ...process.env, ...env },
    timeout: 90_000,
  });
  return stdout;
}

export const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
