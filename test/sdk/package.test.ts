// The SDK as integrators install it: packed, installed from the tarball into an empty folder, then
// imported by an ES module, required by a CommonJS program and compiled by a strict TypeScript
// consumer, each run on the machine's other Node (v20), each paying a payment against a running
// service. And the cost of type-checking a one-line consumer.
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client, VERSION } from "../../sdk/src/index.ts";
import { buildServedApp } from "../helpers/browser.ts";
import {
  installPackedSdk,
  OTHER_NODE,
  removeInstalled,
  run,
  runWithOtherNode,
  TSC,
} from "../helpers/sdk-pack.ts";

// The same journey in each program: a price, a payment, the test card, then wait until it is paid.
const JOURNEY = `
const client = new Client({ baseUrl: env.BASE_URL, apiKey: env.API_KEY });
const appId = env.APP_ID;
const price = await client.prices.create(appId, { name: "Ticket", amount: 20, currency: "usd" });
const payment = await client.payments.create(appId, { price_id: price.id, payment_provider: "card" });
await client.payments.confirm(appId, payment.id, {
  payment_method: { type: "card", number: "4242424242424242", exp_month: 12, exp_year: 2030, cvc: "123" },
});
let status = "";
for (let i = 0; i < 300 && status !== "paid"; i++) {
  status = (await client.payments.get(appId, payment.id)).status;
  if (status !== "paid") await new Promise((resolve) => setTimeout(resolve, 100));
}
let notFound = "";
try {
  await client.payments.get(appId, "pay_unknown");
} catch (error) {
  if (error instanceof NotFoundError) notFound = error.code;
}
console.log(JSON.stringify({ status, notFound, requestId: payment.lastResponse.requestId, version: VERSION }));
`;

/**
 * What a consumer's type-check may cost for importing the SDK, about 1.5 times what it cost on
 * 2026-11-29 (26,824 lines of declarations, 17,195 symbols, 7 types checked): the declarations'
 * parsing and binding are most of that check's time, and counting them fails the same way on any
 * machine, where a timed budget (2 s) failed only on a busy one.
 */
const SDK_BUDGET = { lines: 40_000, symbols: 26_000, types: 1_000 };
const ESM = `import { Client, NotFoundError, VERSION } from "@payments-backend/sdk";\nconst env = process.env;\n${JOURNEY}`;
const CJS = `const { Client, NotFoundError, VERSION } = require("@payments-backend/sdk");\nconst env = process.env;\n(async () => {\n${JOURNEY}\n})();`;
const TS = `import { Client, NotFoundError, VERSION, type Payment } from "@payments-backend/sdk";
declare const process: { env: Record<string, string | undefined> };
const env = { BASE_URL: process.env.BASE_URL ?? "", API_KEY: process.env.API_KEY, APP_ID: process.env.APP_ID ?? "" };
${JOURNEY}
const typed: Payment["status"] = status as Payment["status"];
void typed;
`;

describe("the packed SDK, installed from its tarball", () => {
  let env: Record<string, string>;
  let project: string;
  let serving: ReturnType<typeof buildServedApp> | undefined;

  // Packing and installing with npm took 188 s on a machine half as fast with four test processes
  // beside it: the hook gets five minutes, not the default 120 s.
  before(
    async () => {
      serving = buildServedApp();
      const [served, installed] = await Promise.all([serving, installPackedSdk()]);
      project = installed;
      const owner = new Client({ baseUrl: served.base });
      const name = `pkg${Date.now().toString(36)}`;
      await owner.auth.signUp({
        email: `${name}@example.com`,
        password: "correct horse battery staple",
        username: name,
        first_name: "Pack",
        last_name: "Example",
      });
      const app = await owner.apps.create({ name: "Packed shop", app_fee: 0, use_explorer: false });
      const { key } = await owner.apiKeys.create(app.id, { name: "server" });
      env = { BASE_URL: served.base, API_KEY: key, APP_ID: app.id };
    },
    { timeout: 300_000 },
  );
  // The app is closed even when the hook above gave up while it was being built: left open, its
  // pools and workers would keep this test process (and the run waiting for it) alive for ever.
  after(async () => {
    await (await serving?.catch(() => undefined))?.t.close();
    await removeInstalled();
  });

  const paid = (stdout: string) => {
    const answer = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}");
    assert.equal(answer.status, "paid");
    assert.equal(answer.notFound, "not_found", "a 404 is a NotFoundError with its code");
    assert.match(answer.requestId, /^req_/, "every answer tells its request id");
    assert.equal(answer.version, VERSION);
  };

  test("ships compiled JavaScript and declarations only: no .ts source, no .ts imports", async () => {
    const manifest = JSON.parse(
      await readFile(join(project, "node_modules/@payments-backend/sdk/package.json"), "utf8"),
    );
    assert.equal(manifest.version, VERSION, "sdk/src/version.ts says the package's version");
    assert.deepEqual(Object.keys(manifest.exports["."]), ["import", "require", "default"]);
    const { stdout } = await run("find", [join(project, "node_modules/@payments-backend/sdk"), "-type", "f"]);
    const files = stdout.trim().split("\n");
    assert.ok(
      files.some((f) => f.endsWith("dist/esm/index.js")) &&
        files.some((f) => f.endsWith("dist/cjs/index.js")),
    );
    assert.deepEqual(
      files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts")),
      [],
      "no TypeScript source ships",
    );
    for (const file of files.filter((f) => f.endsWith(".js") || f.endsWith(".d.ts"))) {
      assert.doesNotMatch(
        await readFile(file, "utf8"),
        /from "\.{1,2}\/[^"]+\.ts"/,
        `${file} imports a .ts file`,
      );
    }
  });

  test(`an ES module on the other Node (${OTHER_NODE}) pays a payment`, async () => {
    const { stdout: version } = await run(OTHER_NODE, ["--version"]);
    assert.notEqual(version.trim(), process.version, "the other Node is another version");
    await writeFile(join(project, "main.mjs"), ESM);
    paid(await runWithOtherNode(project, "main.mjs", env));
  });

  test("a CommonJS program on the other Node pays a payment", async () => {
    await writeFile(join(project, "main.cjs"), CJS);
    paid(await runWithOtherNode(project, "main.cjs", env));
  });

  test("a strict TypeScript consumer (tsc --init: strict, exactOptionalPropertyTypes) compiles and pays", async () => {
    await run(OTHER_NODE, [TSC, "--init"], { cwd: project });
    await writeFile(join(project, "consumer.mts"), TS);
    await writeFile(
      join(project, "tsconfig.consumer.json"),
      JSON.stringify({
        extends: "./tsconfig.json",
        // The SDK's own declarations are checked too (skipLibCheck off); TypeScript's libraries are not.
        compilerOptions: {
          strict: true,
          exactOptionalPropertyTypes: true,
          skipLibCheck: false,
          skipDefaultLibCheck: true,
          declaration: false,
          declarationMap: false,
          sourceMap: false,
        },
        files: ["consumer.mts"],
      }),
    );
    await run(OTHER_NODE, [TSC, "-p", "tsconfig.consumer.json"], { cwd: project, timeout: 120_000 });
    paid(await runWithOtherNode(project, "consumer.mjs", env));
  });

  test("type-checking a one-line consumer stays within the SDK's type budget", async () => {
    // Counted, not timed: the compiler's instantiations and types are the same on any machine and
    // under any load, where its seconds are not (a timed budget failed on a busy machine).
    const cost = async (source: string) => {
      await writeFile(join(project, "one.mts"), source);
      await writeFile(
        join(project, "tsconfig.one.json"),
        JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { noEmit: true }, files: ["one.mts"] }),
      );
      const { stdout } = await run(OTHER_NODE, [TSC, "-p", "tsconfig.one.json", "--extendedDiagnostics"], {
        cwd: project,
        timeout: 120_000,
      });
      const count = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(stdout)?.[1]);
      return { lines: count("Lines of Definitions"), symbols: count("Symbols"), types: count("Types") };
    };
    const empty = await cost("export {};\n");
    const one = await cost(
      'import { Client } from "@payments-backend/sdk";\nexport const client = new Client({ baseUrl: "http://127.0.0.1:3000" });\n',
    );
    const added = {
      lines: one.lines - empty.lines,
      symbols: one.symbols - empty.symbols,
      types: one.types - empty.types,
    };
    assert.ok(added.lines > 0, "the SDK's declarations were read");
    assert.ok(
      added.lines < SDK_BUDGET.lines && added.symbols < SDK_BUDGET.symbols && added.types < SDK_BUDGET.types,
      `the SDK adds ${JSON.stringify(added)} to a consumer's check, over ${JSON.stringify(SDK_BUDGET)}`,
    );
  });
});
