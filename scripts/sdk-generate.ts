// Regenerates the SDK's types (`sdk/src/openapi.ts`) and its resource methods
// (`sdk/src/resources.ts`, one per operationId) from the service's own OpenAPI document, built
// in-process: no server, no network. `test/sdk/types.test.ts` fails when either file is stale.
import { writeFile } from "node:fs/promises";
import { SDK_RESOURCES_FILE, SDK_TYPES_FILE, sdkGenerated } from "../test/helpers/sdk-types.ts";

const { types, resources } = await sdkGenerated();
await writeFile(SDK_TYPES_FILE, types);
await writeFile(SDK_RESOURCES_FILE, resources);
console.log(`wrote ${SDK_TYPES_FILE} and ${SDK_RESOURCES_FILE}`);
