// The SDK as an integrator gets it: `npm pack`ed (which builds it), then installed from the tarball
// into an empty folder, offline. Packed from a copy of sdk/, so test files that pack at the same
// time never write one dist/ together.
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The machine's other Node (v20 here; the tests themselves run on node_modules' v24). */
export const OTHER_NODE = process.env.OTHER_NODE ?? "/usr/bin/node";

/** Packs a copy of the package in `folder` (its `files`) into `work`; answers the tarball's path. */
async function pack(work: string, folder: "sdk" | "cli", files: string[]): Promise<string> {
  const copy = join(work, folder);
  await mkdir(copy);
  for (const name of files) await cp(join(ROOT, folder, name), join(copy, name), { recursive: true });
  // The SDK's build uses the repository's TypeScript.
  await symlink(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
  const { stdout } = await run("npm", ["pack", "--silent", "--pack-destination", work], {
    cwd: copy,
    timeout: 180_000,
  });
  const name = stdout.trim().split("\n").at(-1);
  const tarball = (await readdir(work)).find((file) => file === name);
  if (!tarball) throw new Error(`npm pack wrote no tarball for ${folder}`);
  return join(work, tarball);
}

/** Installs tarballs into a fresh folder, offline, as `npm install <tarball>` would; answers the folder. */
async function installInto(work: string, tarballs: string[]): Promise<string> {
  const project = join(work, "project");
  await mkdir(project);
  await writeFile(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  await run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", ...tarballs], {
    cwd: project,
    timeout: 120_000,
  });
  return project;
}

const packSdk = (work: string) =>
  pack(work, "sdk", ["package.json", "README.md", "build.mjs", "tsconfig.build.json", "src"]);

/** The folders this process packed and installed into (10 MB each), until `removeInstalled`. */
const installs = new Set<string>();

async function workFolder(prefix: string): Promise<string> {
  const work = await mkdtemp(join(tmpdir(), prefix));
  installs.add(work);
  return work;
}

/** Removes every folder `installPackedSdk` and `installPackedCli` made: for a file's `after`. */
export async function removeInstalled(): Promise<void> {
  const made = [...installs];
  installs.clear();
  await Promise.all(made.map((work) => rm(work, { recursive: true, force: true })));
}

/** Packs sdk/ and installs the tarball into a fresh folder; answers the folder. */
export async function installPackedSdk(): Promise<string> {
  const work = await workFolder("sdk-pack-");
  return installInto(work, [await packSdk(work)]);
}

/**
 * Packs cli/ and sdk/ and installs both tarballs into a fresh folder, as `npm install
 * @payments-backend/cli` would from the registry; answers the path of the installed `bin.mjs`.
 */
export async function installPackedCli(): Promise<string> {
  const work = await workFolder("cli-pack-");
  const sdk = await packSdk(work);
  const cli = await pack(work, "cli", ["package.json", "README.md", "bin.mjs", "src"]);
  const project = await installInto(work, [sdk, cli]);
  return join(project, "node_modules/@payments-backend/cli/bin.mjs");
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
