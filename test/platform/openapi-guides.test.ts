// The document's prose and samples (docs/openapi.md): the guides in `info.description` with their
// generated parts (error codes, configured rate limits, test instruments, every webhook event,
// chain markers), a real description on every operation from one place only, and a curl and a
// TypeScript sample on every operation, shown in Swagger UI's copy of the document too.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "../../sdk/src/index.ts";
import { EVENT_SCHEMAS } from "../../src/modules/webhooks/event-schemas.ts";
import { ERROR_STATUS } from "../../src/platform/http/errors.ts";
import { GUIDES } from "../../src/platform/http/guides.ts";
import { guideFiles, readReference, reflow } from "../../src/platform/http/openapi-prose.ts";
import { EXCLUDED, methodOf } from "../../src/platform/http/sdk-names.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";

type Sample = { lang: string; label: string; source: string };
type Operation = {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  "x-codeSamples"?: Sample[];
};
type Doc = {
  info: { description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
};

const PUBLIC_URL = "https://payments.example.com";
let doc: Doc;
let forSwaggerUi: Doc;
const operations = (of: Doc = doc) =>
  Object.entries(of.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op })),
  );

const fx = useTestApp(
  { PUBLIC_URL, RATE_LIMITS: "signup_per_ip=7/60", LIST_COUNT_CAP: "5000" },
  {
    tenants: false,
    async setUp() {
      doc = expectStatus(await call(fx.app, "GET", "/openapi.json"), 200);
      forSwaggerUi = expectStatus(await call(fx.app, "GET", "/docs/json"), 200);
    },
  },
);

test("every operation has a description of its own, from its route or docs/reference, not both", () => {
  const reference = readReference();
  const missing: string[] = [];
  const twice: string[] = [];
  const seen = new Set<string>();
  for (const { at, op } of operations()) {
    seen.add(op.operationId);
    const text = op.description?.trim() ?? "";
    if (text === "" || text === op.summary?.trim()) missing.push(`${op.operationId} (${at})`);
    const written = reference.get(op.operationId);
    if (written && text !== written.text)
      twice.push(`${op.operationId}: its route and docs/reference/${written.file}`);
  }
  assert.deepEqual(
    missing,
    [],
    "operations without a description: add a `## <operationId>` section to docs/reference/<tag>.md",
  );
  assert.deepEqual(twice, [], "described in two places: keep one");
  const stale = [...reference.keys()].filter((id) => !seen.has(id));
  assert.deepEqual(stale, [], "docs/reference describes operations that no longer exist");
  for (const [type, { post }] of Object.entries(doc.webhooks)) assert.ok(post.description, `webhook ${type}`);
});

test("the guides are in info.description, each shown, with nothing left to fill", () => {
  const text = doc.info.description;
  assert.deepEqual(
    [...GUIDES].sort(),
    guideFiles(),
    "every docs/guides file is listed in GUIDES, and only those",
  );
  for (const title of ["Authentication", "Errors", "Idempotency", "Pagination", "Rate limits", "Webhooks"]) {
    assert.match(text, new RegExp(`<summary><strong>${title}[^<]*</strong></summary>`), title);
  }
  assert.doesNotMatch(text, /\{\{[a-z-]+\}\}/, "every placeholder is filled");
  assert.ok(text.includes(`\`${PUBLIC_URL}\``), "the introduction names PUBLIC_URL");
  assert.deepEqual(doc.servers, [{ url: PUBLIC_URL }]);
});

test("the error catalogue lists every code of the one list, with its status", () => {
  const text = doc.info.description;
  for (const [code, status] of Object.entries(ERROR_STATUS)) {
    assert.match(text, new RegExp(`\\| ${status} \\| \`${code}\` \\|`), code);
  }
});

test("the rate limits are this deployment's, the test instruments and chain markers the sandbox's", () => {
  const text = doc.info.description;
  assert.match(text, /\| `signup_per_ip` \| 7 per minute \|/, "RATE_LIMITS is read");
  assert.match(text, /\| `login_per_ip` \| 100 per 15 minutes \|/, "a default");
  assert.match(text, /exact up to 5,000/, "LIST_COUNT_CAP");
  for (const value of [
    "4242424242424242",
    "4000000000000002",
    "4000002760003184",
    "pm_card_visa",
    "000111111113",
  ]) {
    assert.ok(text.includes(`\`${value}\``), value);
  }
  assert.match(text, /`4000000000009995` \| Declined, `insufficient_funds`/);
  for (const marker of ["revert", "drop", "slow", "unfunded"])
    assert.ok(text.includes(`| \`sandbox:${marker}\` |`), marker);
});

test("every webhook event is in the guide with its example payload, as the webhooks section has it", () => {
  const text = doc.info.description;
  assert.ok(Object.keys(EVENT_SCHEMAS).length >= 17);
  for (const [type, schema] of Object.entries(EVENT_SCHEMAS)) {
    const example = (schema.examples as unknown[])[0];
    assert.ok(text.includes(`<summary><code>${type}</code>`), type);
    assert.ok(text.includes(JSON.stringify(example, null, 2)), `${type}: its example`);
    const media = (
      doc.webhooks[type].post as unknown as {
        requestBody: { content: Record<string, { example: unknown }> };
      }
    ).requestBody.content["application/json"];
    assert.deepEqual(media.example, example, `${type}: the webhooks section's example`);
  }
});

test("every operation has a curl and a TypeScript sample; SDK samples call a method the SDK has", () => {
  const client = new Client({ baseUrl: PUBLIC_URL }) as unknown as Record<string, Record<string, unknown>>;
  const wrong: string[] = [];
  for (const { at, op } of operations()) {
    const [curl, typescript] = op["x-codeSamples"] ?? [];
    if (curl?.lang !== "Shell" || !curl.source.startsWith(`curl `) || !curl.source.includes(PUBLIC_URL)) {
      wrong.push(`${at}: curl`);
    }
    if (typescript?.lang !== "TypeScript") {
      wrong.push(`${at}: TypeScript`);
      continue;
    }
    if (EXCLUDED[op.operationId]) {
      if (!typescript.source.includes("fetch(")) wrong.push(`${at}: fetch`);
      continue;
    }
    const [group, name] = methodOf(op);
    if (
      typeof client[group]?.[name] !== "function" ||
      !typescript.source.includes(`client.${group}.${name}(`)
    ) {
      wrong.push(`${at}: client.${group}.${name}`);
    }
  }
  assert.deepEqual(wrong, []);
  const create = doc.paths["/payments/{app_id}"].post["x-codeSamples"] ?? [];
  assert.match(create[0].source, /-H "Authorization: Bearer \$API_KEY"/);
  assert.match(create[0].source, /-H "Idempotency-Key: /);
  assert.match(create[0].source, /"price_id": "price_/, "the body's example");
  assert.match(
    create[1].source,
    /const payment = await client\.payments\.create\(appId, \{\n {2}price_id: "price_/,
  );
  const list = doc.paths["/payments/{app_id}"].get["x-codeSamples"] ?? [];
  assert.match(list[1].source, /for await \(const payment of client\.payments\.list\(appId\)\)/);
  const bid = doc.paths["/auctions/{app_id}/{auction_id}/bids"].post["x-codeSamples"] ?? [];
  assert.match(bid[0].source, /Bearer \$SHOPPER_TOKEN/, "a bid takes the shopper's token");
  const me = doc.paths["/users/me"].get["x-codeSamples"] ?? [];
  assert.match(me[1].source, /token: process\.env\.SESSION_TOKEN/, "a person's operation takes a session");
  const receiver = doc.webhooks["payment.paid"].post["x-codeSamples"] ?? [];
  assert.match(receiver[0].source, /verifyWebhook\(rawBody, request\.headers/);
});

test("Swagger UI's copy of the document shows the samples in each description", () => {
  const shown = new Map(operations(forSwaggerUi).map(({ op }) => [op.operationId, op.description ?? ""]));
  for (const { op } of operations()) {
    const description = shown.get(op.operationId) ?? "";
    assert.ok(description.startsWith(op.description ?? ""), `${op.operationId}: its own description first`);
    for (const sample of op["x-codeSamples"] ?? []) {
      assert.ok(description.includes(`\n${sample.source}\n\`\`\``), `${op.operationId}: ${sample.label}`);
    }
  }
  assert.ok(!("description" in (doc.paths["/payments/{app_id}"].post["x-codeSamples"]?.[0] ?? {})));
  assert.doesNotMatch(
    doc.paths["/payments/{app_id}"].post.description ?? "",
    /```/,
    "/openapi.json keeps its prose",
  );
});

test("reflow joins wrapped paragraphs and list items, and keeps code, tables and HTML", () => {
  const source = [
    "A paragraph",
    "wrapped here.",
    "",
    "- an item",
    "  continued",
    "- another",
    "",
    "| a | b |",
    "| --- | --- |",
    "<details>",
    "```sh",
    "curl one",
    "  two",
    "```",
  ].join("\n");
  assert.equal(
    reflow(source),
    [
      "A paragraph wrapped here.",
      "",
      "- an item continued",
      "- another",
      "",
      "| a | b |",
      "| --- | --- |",
      "<details>",
      "```sh",
      "curl one",
      "  two",
      "```",
    ].join("\n"),
  );
});
