// The SDK's types are generated from the service's document: they must match it as it is now.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { SDK_TYPES_FILE, sdkTypes } from "../helpers/sdk-types.ts";

test("sdk/src/openapi.ts matches the service's OpenAPI document (else: npm run sdk:generate)", async () => {
  const committed = await readFile(SDK_TYPES_FILE, "utf8");
  assert.ok(committed === (await sdkTypes()), "the SDK's types are stale: run `npm run sdk:generate`");
});
