import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { test } from "node:test";
import { createLogger } from "../../src/platform/log.ts";
import { maskSecrets } from "../../src/platform/mail/index.ts";

test("secrets in logged objects are redacted", () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  const logger = createLogger("info", sink);
  logger.info({
    req: { headers: { authorization: "Bearer ust_supersecret" } },
    password: "hunter2hunter2",
    body: { private_key: "0xdeadbeef", phrase_or_key: "seed words", token: "tok" },
    wallet: { key: "sk_test_abc" },
  });
  const text = lines.join("");
  for (const secret of [
    "ust_supersecret",
    "hunter2hunter2",
    "0xdeadbeef",
    "seed words",
    "sk_test_abc",
    '"tok"',
  ]) {
    assert.ok(!text.includes(secret), `${secret} is redacted`);
  }
  assert.match(text, /\[redacted\]/);
});

test("mail log copies mask long tokens but keep short codes", () => {
  const masked = maskSecrets("token inv_AbCdEfGhIjKlMnOpQrStUv and code 123456");
  assert.ok(!masked.includes("inv_AbCdEfGhIjKlMnOpQrStUv"));
  assert.match(masked, /inv_AbCd…/);
  assert.match(masked, /123456/);
});
