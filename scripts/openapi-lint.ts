// Prints the service's OpenAPI document's Redocly lint findings (recommended rules); the same check
// runs in `npm test` (test/platform/openapi-lint.test.ts). `--write <file>` also saves the document.
import { writeFile } from "node:fs/promises";
import { buildTestApp } from "../test/helpers/app.ts";
import { lintDocument } from "../test/helpers/openapi-lint.ts";

const app = await buildTestApp();
try {
  const doc = app.app.swagger();
  const at = process.argv.indexOf("--write");
  if (at > 0) await writeFile(process.argv[at + 1], JSON.stringify(doc, null, 2));
  const problems = await lintDocument(doc);
  for (const p of problems) console.log(`${p.severity} ${p.ruleId} ${p.location} ${p.message}`);
  console.log(
    `${problems.filter((p) => p.severity === "error").length} errors, ${problems.filter((p) => p.severity === "warn").length} warnings`,
  );
} finally {
  await app.close();
}
