// The README's quick-start (examples/quick-start.ts) runs as written against a fresh service.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp } from "../helpers/browser.ts";

let t: TestApp;
let base: string;

before(async () => {
  ({ t, base } = await buildServedApp({ WEBHOOKS_ALLOW_LOOPBACK: "true" }));
});
after(() => t?.close());

test("node examples/quick-start.ts: signs up, sells, is paid and told so by a verified webhook", async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ["examples/quick-start.ts"], {
    env: { ...process.env, BASE_URL: base },
    timeout: 90_000,
  });
  const lines = stdout.trim().split("\n");
  assert.match(lines[0], /^payment\.paid: pay_\w+$/);
  const paymentId = lines[0].split(": ")[1];
  assert.deepEqual(lines.slice(1), [`${paymentId} paid`]);
});

test("the README shows examples/quick-start.ts as it is", async () => {
  const readme = await readFile("README.md", "utf8");
  const example = await readFile("examples/quick-start.ts", "utf8");
  const code = example.slice(example.indexOf("import { randomUUID }")).trimEnd();
  assert.ok(readme.includes("```ts\n" + code + "\n```"), "README's quick-start block differs from the file");
});
