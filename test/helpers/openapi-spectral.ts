import spectralCore from "@stoplight/spectral-core";
import parsers from "@stoplight/spectral-parsers";
import rulesets from "@stoplight/spectral-rulesets";
import type { LintFinding } from "./openapi-lint.ts";

// Spectral's packages are CommonJS: their named exports are read off the default export.
const { Document, Spectral } = spectralCore;
const SEVERITIES = ["error", "warn", "info", "hint"];

/**
 * The document's findings under Spectral's `spectral:oas` ruleset (its recommended rules, as
 * `spectral lint` runs them by default), in the shape of the Redocly helper's findings.
 */
export async function spectralFindings(doc: unknown): Promise<LintFinding[]> {
  const spectral = new Spectral();
  spectral.setRuleset({ extends: [rulesets.oas as never] });
  const results = await spectral.run(new Document(JSON.stringify(doc), parsers.Json, "openapi.json"));
  return results.map((r) => ({
    severity: SEVERITIES[r.severity] ?? String(r.severity),
    ruleId: String(r.code),
    message: r.message,
    location: `#/${r.path.map((part) => String(part).replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`,
  }));
}
