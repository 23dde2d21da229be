// Every operation of the service's document has an SDK method (or a stated reason not to), and the
// method calls that operation: a new route without a method fails here.
import assert from "node:assert/strict";
import { test } from "node:test";
import { Client } from "../../sdk/src/index.ts";
import { OPERATIONS } from "../../sdk/src/resources.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { EXCLUDED, methodOf } from "../helpers/sdk-resources.ts";

const fx = useTestApp({}, { tenants: false });

test("every operation in the OpenAPI document has a method on Client (or a reason in EXCLUDED)", async () => {
  const doc = fx.app.app.swagger() as {
    paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
  };
  const client = new Client({ baseUrl: "http://127.0.0.1:1" }) as unknown as Record<
    string,
    Record<string, unknown>
  >;
  const seen = new Set<string>();
  const missing: string[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const id = operation?.operationId;
      if (!id) continue;
      seen.add(id);
      if (EXCLUDED[id]) continue;
      const described = (OPERATIONS as Record<string, { method: string; path: string }>)[id];
      const [group, name] = methodOf(operation as never);
      if (!described || typeof client[group]?.[name] !== "function") {
        missing.push(`${id} (${method.toUpperCase()} ${path}) -> client.${group}.${name}`);
        continue;
      }
      assert.deepEqual([described.method, described.path], [method.toUpperCase(), path], id);
    }
  }
  assert.deepEqual(missing, [], "operations without an SDK method: run `npm run sdk:generate`");
  for (const id of Object.keys(EXCLUDED))
    assert.ok(seen.has(id), `EXCLUDED names ${id}, which no longer exists`);
  assert.ok(seen.size - Object.keys(EXCLUDED).length >= 85, "the document's operations were read");
});
