// `npm run bench:startup`: what a process spends before its first test, phase by phase, as a
// test file's process does (the module graph, a migrated database copied, the app built, the usual
// tenants signed up), with `npm test`'s flags (the start-up resolution hook, src/resolve-hooks.ts,
// and V8's --liftoff-only), without --liftoff-only, and without it at the default password hash
// cost too (as before both), alternating, in fresh processes.
// CPU time of the process (user + system), which the machine's other work moves less than the
// wall clock. BENCH_STARTUP_ROUNDS (5) rounds; medians printed (docs/benchmarks.md).
import { execFileSync } from "node:child_process";
import os from "node:os";
import { median } from "./stats.ts";

const PHASES = ["modules", "database", "app", "first request", "sign-ups"] as const;
type Phase = (typeof PHASES)[number];

if (process.argv[2] === "--child") {
  const cpu = () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  const figures: Partial<Record<Phase, number>> = {};
  let last = cpu();
  const lap = (phase: Phase) => {
    const now = cpu();
    figures[phase] = now - last;
    last = now;
  };
  const { buildTestApp } = await import("../test/helpers/app.ts");
  const { isolatedDatabase } = await import("../test/helpers/database.ts");
  const { tenantFixture } = await import("../test/helpers/http.ts");
  lap("modules");
  // The copy of the migrated database made once before, as every test file but the first finds it.
  const database = await isolatedDatabase();
  await database.handle.close();
  await database.drop();
  lap("database");
  // The app's build opens a copy of its own, cheaper than the first (PGlite's WebAssembly and
  // file system are set up by then): a second copy is timed alone and taken out of the app's
  // figure, so the phases add up to what a test file's one open and one app cost.
  const second = await isolatedDatabase();
  await second.handle.close();
  await second.drop();
  const secondOpen = cpu() - last;
  last = cpu();
  const cost = process.env.BENCH_STARTUP_PASSWORD_HASH_COST;
  const app = await buildTestApp(cost ? { PASSWORD_HASH_COST: cost } : {});
  figures.app = cpu() - last - secondOpen;
  last = cpu();
  await app.app.inject({ method: "GET", url: "/health" });
  lap("first request");
  await tenantFixture(app);
  lap("sign-ups");
  await app.close();
  console.log(JSON.stringify(figures));
  process.exit(0);
}

const ROUNDS = Number(process.env.BENCH_STARTUP_ROUNDS ?? 5);
const HOOK = ["--import", "./src/resolve-hooks.ts"];
const VARIANTS = {
  "npm test's": { args: ["--liftoff-only", ...HOOK], env: {} },
  "without --liftoff-only": { args: HOOK, env: {} },
  "neither (password cost 15)": { args: HOOK, env: { BENCH_STARTUP_PASSWORD_HASH_COST: "15" } },
};
type Variant = keyof typeof VARIANTS;
const runs = Object.fromEntries(Object.keys(VARIANTS).map((variant) => [variant, []])) as unknown as Record<
  Variant,
  Record<Phase, number>[]
>;

function child(variant: Variant): Record<Phase, number> {
  const { args, env } = VARIANTS[variant];
  const output = execFileSync(process.execPath, [...args, "bench/startup.ts", "--child"], {
    encoding: "utf8",
    env: { ...process.env, ...env, NODE_COMPILE_CACHE: "node_modules/.cache/node", LOG_LEVEL: "warn" },
  });
  return JSON.parse(output.trim().split("\n").at(-1)!);
}

// A first run of each fills the compile cache and the database copy, as any earlier test run has.
for (const variant of Object.keys(VARIANTS) as Variant[]) child(variant);
for (let round = 0; round < ROUNDS; round++) {
  const order = Object.keys(VARIANTS) as Variant[];
  if (round % 2) order.reverse();
  for (const variant of order) runs[variant].push(child(variant));
}

console.log(
  `\nCPU ms per phase, median of ${ROUNDS} fresh processes each, ${os.cpus().length} CPUs, Node ${process.version}, load average ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(", ")}\n`,
);
console.log(`| phase | ${Object.keys(VARIANTS).join(" | ")} |`);
console.log(
  `|---|${Object.keys(VARIANTS)
    .map(() => "---:")
    .join("|")}|`,
);
for (const phase of [...PHASES, "total"] as const) {
  const cells = (Object.keys(VARIANTS) as Variant[]).map((variant) =>
    median(
      runs[variant].map((run) =>
        phase === "total" ? PHASES.reduce((sum, p) => sum + run[p], 0) : run[phase],
      ),
    ).toFixed(0),
  );
  console.log(`| ${phase} | ${cells.join(" | ")} |`);
}
