// The package's version, sent in the User-Agent. test/sdk/package.test.ts fails when it differs
// from sdk/package.json (a JSON import would not survive both the ESM and the CJS build).
export const VERSION = "0.1.0";
export const PACKAGE = "@payments-backend/sdk";
