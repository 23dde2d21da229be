import { matchesGlob } from "node:path";

/**
 * The test files whose outcome the database engine does not decide. `.ci/run` runs the suite twice,
 * on the embedded database and then on PostgreSQL, and sets ENGINE_INDEPENDENT_TESTS=skip for the
 * second pass, whose lanes then skip these files without loading them (test/helpers/lane.ts).
 *
 * Two kinds:
 * - clients of the HTTP API, or pages that only read its document: the console's pages (React in
 *   Chromium), the documentation page (Swagger UI), the SDK and the CLI installed from their packed
 *   tarballs and run on the machine's other Node, and the document's own checks. Each does the
 *   same on either engine, and every route they call is tested in the second pass through HTTP;
 * - files that open no database of the suite's engine: the money arithmetic, the chains' adapters
 *   against their nodes and stand-ins, the SDK's generated types, the library shims (PGlite's
 *   included: it is PGlite on either pass), the module hooks, the lanes themselves, the bundle,
 *   the source files' lengths.
 *
 * The hosted pages' browser tests (checkout, auction, KYC widget, journeys), which take money, are
 * not here and run in both passes. On a slow machine the first kind were 524 s and the second 150 s
 * of that pass's file time (docs/benchmarks.md, "Engine-independent files once a CI run" and
 * "Engine-independent files not loaded"). A developer's `npm test` on either engine runs them all.
 */
export const ENGINE_INDEPENDENT_FILES: readonly string[] = [
  "test/dashboard/*.browser.test.ts",
  "test/dashboard/bundle.test.ts",
  "test/platform/docs.browser.test.ts",
  "test/platform/openapi-document.test.ts",
  "test/platform/openapi-spectral.test.ts",
  "test/cli/cli.test.ts",
  "test/sdk/package.test.ts",
  "test/sdk/types.test.ts",
  "test/sdk/transport.test.ts",
  "test/money/*.test.ts",
  "test/chains/evm.test.ts",
  "test/chains/evm-networks.test.ts",
  "test/chains/near.test.ts",
  "test/chains/solana.test.ts",
  "test/chains/solana-compression.test.ts",
  "test/chains/wax.test.ts",
  "test/platform/db-shims.test.ts",
  "test/platform/pglite-statements.test.ts",
  "test/platform/resolve-hooks.test.ts",
  "test/platform/lazy-sdks.test.ts",
  "test/platform/test-lanes.test.ts",
  "test/platform/file-lengths.test.ts",
];

/** Why this run skips `file` (a path from the project's root), or false. */
export function ranInTheOtherPass(file: string): string | false {
  if (process.env.ENGINE_INDEPENDENT_TESTS !== "skip") return false;
  if (!ENGINE_INDEPENDENT_FILES.some((pattern) => matchesGlob(file, pattern))) return false;
  return "tests nothing of the database engine and ran in this CI run's other pass (ENGINE_INDEPENDENT_TESTS=skip, .ci/run)";
}
