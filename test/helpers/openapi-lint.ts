import { createConfig, lintFromString } from "@redocly/openapi-core";

export interface LintFinding {
  severity: string;
  ruleId: string;
  message: string;
  location: string;
}

/** The document's findings under Redocly's `recommended` rules. */
export async function lintDocument(doc: unknown): Promise<LintFinding[]> {
  const config = await createConfig({ extends: ["recommended"] });
  const results = await lintFromString({
    source: JSON.stringify(doc),
    absoluteRef: "openapi.json",
    config,
  });
  return results.map((r) => ({
    severity: r.severity,
    ruleId: r.ruleId,
    message: r.message,
    location: r.location.map((l) => l.pointer ?? "").join(" "),
  }));
}
