// Prints the service's OpenAPI document's lint findings: Redocly's `recommended` rules and
// Spectral's `spectral:oas` ruleset. The same checks run in `npm test`
// (test/platform/openapi-document.test.ts, openapi-spectral.test.ts). `--write <file>` also saves
// the document.
import { writeFile } from "node:fs/promises";
import { buildTestApp } from "../test/helpers/app.ts";
import { type LintFinding, lintDocument } from "../test/helpers/openapi-lint.ts";
import { spectralFindings } from "../test/helpers/openapi-spectral.ts";

function print(tool: string, findings: LintFinding[]) {
  console.log(`== ${tool}`);
  for (const f of findings) console.log(`${f.severity} ${f.ruleId} ${f.location} ${f.message}`);
  const count = (severity: string) => findings.filter((f) => f.severity === severity).length;
  console.log(`${count("error")} errors, ${count("warn")} warnings`);
}

const app = await buildTestApp();
try {
  const doc = app.app.swagger();
  const at = process.argv.indexOf("--write");
  if (at > 0) await writeFile(process.argv[at + 1], JSON.stringify(doc, null, 2));
  print("Redocly (recommended)", await lintDocument(doc));
  print("Spectral (spectral:oas)", await spectralFindings(doc));
} finally {
  await app.close();
}
