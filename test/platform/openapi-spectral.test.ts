// Spectral's `spectral:oas` ruleset, beside Redocly's (openapi-document.test.ts): the served
// document has no error and no warning, `operation-description` included. No rule is turned off.
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { spectralFindings } from "../helpers/openapi-spectral.ts";

let doc: Record<string, unknown>;

const fx = useTestApp(
  {},
  {
    tenants: false,
    async setUp() {
      doc = expectStatus(await call(fx.app, "GET", "/openapi.json"), 200);
    },
  },
);

test("spectral:oas finds no error and no warning in /openapi.json", async () => {
  const findings = await spectralFindings(doc);
  assert.deepEqual(
    findings.filter((f) => f.severity === "error" || f.severity === "warn"),
    [],
  );
});

test("the check can fail: an operation without a description is a warning", async () => {
  const paths = structuredClone(doc.paths) as Record<string, Record<string, { description?: string }>>;
  const operation = paths["/payments/{app_id}"].post;
  delete operation.description;
  const findings = await spectralFindings({ ...doc, paths });
  assert.deepEqual(
    findings.map((f) => [f.severity, f.ruleId, f.location]),
    [["warn", "operation-description", "#/paths/~1payments~1{app_id}/post"]],
  );
});
