// Regenerates the SDK's types (`sdk/src/openapi.ts`) from the service's own OpenAPI document, built
// in-process: no server, no network. `test/sdk/types.test.ts` fails when the committed file is stale.
import { writeFile } from "node:fs/promises";
import { SDK_TYPES_FILE, sdkTypes } from "../test/helpers/sdk-types.ts";

await writeFile(SDK_TYPES_FILE, await sdkTypes());
console.log(`wrote ${SDK_TYPES_FILE}`);
