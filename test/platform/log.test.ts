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

test("a failed statement's parameter values never reach a log line", () => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  const logger = createLogger("info", sink);
  // As drizzle throws it: the parameters in its message and its `params`, PostgreSQL's error as cause.
  const cause = Object.assign(new Error("duplicate key value violates unique constraint"), {
    detail: "Key (token_hash)=(pt_SecretPaymentToken123456) already exists.",
  });
  const error = Object.assign(
    new Error(
      'Failed query: insert into "payments" ("token") values ($1)\nparams: pt_SecretPaymentToken123456',
    ),
    { params: ["pt_SecretPaymentToken123456"], cause },
  );
  logger.error({ err: error }, "unhandled error");
  const text = lines.join("");
  assert.ok(!text.includes("SecretPaymentToken"), text);
  assert.match(text, /Failed query: insert into/, "the statement itself is kept");
});
