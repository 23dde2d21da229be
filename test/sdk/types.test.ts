// The SDK's types and methods are generated from the service's document: they must match it as it is now.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { SDK_RESOURCES_FILE, SDK_TYPES_FILE, sdkGenerated } from "../helpers/sdk-types.ts";

test("sdk/src/openapi.ts and resources.ts match the service's OpenAPI document (else: npm run sdk:generate)", async () => {
  const now = await sdkGenerated();
  assert.ok(
    (await readFile(SDK_TYPES_FILE, "utf8")) === now.types,
    "the SDK's types are stale: run `npm run sdk:generate`",
  );
  assert.ok(
    (await readFile(SDK_RESOURCES_FILE, "utf8")) === now.resources,
    "the SDK's methods are stale: run `npm run sdk:generate`",
  );
});
