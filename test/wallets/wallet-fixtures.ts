// What the wallet API's test files share (wallets.test.ts, wallet-validation.test.ts): each file's
// own wallet app and tenants, and the check that ends the file, proving no secret leaked.
import { after, before } from "node:test";
import type { Tenants } from "../helpers/fixture.ts";
import { tenantFixture } from "../helpers/http.ts";
import { buildWalletTestApp, type WalletTestApp } from "../helpers/wallets.ts";

/**
 * Builds the file's wallet app (test/helpers/wallets.ts) and its tenants before the file's tests
 * and hands them to `ready`; after the tests, proves no secret the file handled leaked, and closes
 * the app. Call it at the top of a test file, so that its hooks are that file's.
 */
export function useWalletApp(ready: (w: WalletTestApp, f: Tenants) => void): void {
  let w: WalletTestApp;

  before(async () => {
    w = await buildWalletTestApp();
    ready(w, await tenantFixture(w.t));
  });
  after(async () => {
    w.assertNoLeak();
    await w.t.close();
  });
}
