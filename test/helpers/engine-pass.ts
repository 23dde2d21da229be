/**
 * Why this run skips a file that tests nothing of the database engine, or false. `.ci/run` runs the
 * suite twice, on the embedded database and then on PostgreSQL, and sets
 * ENGINE_INDEPENDENT_TESTS=skip for the second pass. The files that read it are clients of the HTTP
 * API or pages that only read the API's document: the console's pages (React in Chromium), the
 * documentation page (Swagger UI), the SDK and the CLI installed from their packed tarballs and run
 * on the machine's other Node. Each does the same on either engine, and every route they call is
 * tested in the second pass through HTTP. Chromium was about a quarter of that pass's CPU, and the
 * SDK's, CLI's and documentation's files 524 s of its 3,018 s of file time on a slow machine
 * (docs/benchmarks.md, "Where CI's PostgreSQL pass spends its CPU" and "Engine-independent files
 * once a CI run"). A developer's `npm test` on either engine runs them;
 * the hosted pages' browser tests (checkout, auction, KYC widget, journeys), which take money, run
 * in both passes.
 */
export function ranInTheOtherPass(what: string): string | false {
  return process.env.ENGINE_INDEPENDENT_TESTS === "skip"
    ? `${what} ran in this CI run's other pass (ENGINE_INDEPENDENT_TESTS=skip, .ci/run)`
    : false;
}
