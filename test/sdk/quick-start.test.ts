// The README's quick start (examples/quick-start.mjs) runs as written, on Node 20 and on Node 24,
// with the SDK installed from its packed tarball, against a fresh service.
import assert from "node:assert/strict";
import { copyFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp } from "../helpers/browser.ts";
import { installPackedSdk, OTHER_NODE, removeInstalled, run } from "../helpers/sdk-pack.ts";

let t: TestApp;
let base: string;
let project: string;

before(async () => {
  const [served, installed] = await Promise.all([
    buildServedApp({ WEBHOOKS_ALLOW_LOOPBACK: "true" }),
    installPackedSdk(),
  ]);
  ({ t, base } = served);
  project = installed;
  await copyFile("examples/quick-start.mjs", join(project, "quick-start.mjs"));
});
after(async () => {
  await t?.close();
  await removeInstalled();
});

for (const [name, node] of [
  ["the other Node (20)", OTHER_NODE],
  ["this Node (24)", process.execPath],
] as const) {
  test(`node quick-start.mjs on ${name}: signs up, sells, is paid and told so by a verified webhook`, async () => {
    const { stdout } = await run(node, ["quick-start.mjs"], {
      cwd: project,
      env: { ...process.env, BASE_URL: base },
      timeout: 90_000,
    });
    const lines = stdout.trim().split("\n");
    assert.match(lines[0], /^payment\.paid: pay_\w+$/);
    const paymentId = lines[0].split(": ")[1];
    assert.deepEqual(lines.slice(1), [`${paymentId} paid`]);
  });
}

test("the README shows examples/quick-start.mjs as it is", async () => {
  const readme = await readFile("README.md", "utf8");
  const example = await readFile("examples/quick-start.mjs", "utf8");
  const code = example.slice(example.indexOf("import { randomUUID }")).trimEnd();
  assert.ok(readme.includes("```js\n" + code + "\n```"), "README's quick-start block differs from the file");
});
