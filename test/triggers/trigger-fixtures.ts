// What the trigger API's test files share (create.test.ts, update-delete.test.ts): each file's own
// wallet app (test/helpers/wallets.ts) with its tenants and the wallets its triggers call from, the
// leak check that ends the file, and the requests that create a trigger.
import { after, before } from "node:test";
import type { Tenants } from "../helpers/fixture.ts";
import { assertProblem, expectStatus, tenantFixture } from "../helpers/http.ts";
import { buildWalletTestApp, createWallet, type WalletTestApp } from "../helpers/wallets.ts";

/** A file's app and tenants, an EVM and a NEAR wallet of the owner's app, an EVM wallet of another app. */
export interface TriggerFixture {
  w: WalletTestApp;
  f: Tenants;
  evmWallet: any;
  nearWallet: any;
  foreignWallet: any;
}

/**
 * Builds the file's wallet app, its tenants and their wallets before the file's tests and hands them
 * to `ready`; after the tests, proves no secret leaked and closes the app. Call it at the top of a
 * test file, so that its hooks are that file's. Answers `post` (a trigger's body, as the owner
 * unless `token` says otherwise), `created` (the same, expecting 201) and `firstPath` (the path of
 * the first error of a 400 answer).
 */
export function useTriggerApp(ready: (fixture: TriggerFixture) => void) {
  let w: WalletTestApp;
  let f: Tenants;

  before(async () => {
    w = await buildWalletTestApp();
    f = await tenantFixture(w.t);
    const evmWallet = await createWallet(w, f.owner.token, f.app.id, { type: "evm" });
    const nearWallet = await createWallet(w, f.owner.token, f.app.id, { type: "near" });
    const foreignWallet = await createWallet(w, f.outsider.token, f.otherApp.id, { type: "evm" });
    for (const x of [evmWallet, nearWallet, foreignWallet]) await w.remember(x.id);
    ready({ w, f, evmWallet, nearWallet, foreignWallet });
  });
  after(async () => {
    w.assertNoLeak();
    await w.t.close();
  });

  const post = (body: unknown, token = f.owner.token) =>
    w.call("POST", `/triggers/${f.app.id}`, { token, body });
  const created = async (body: unknown) => expectStatus(await post(body), 201);
  const firstPath = (answer: any) => assertProblem(answer, 400, "validation_failed").errors[0].path;
  return { post, created, firstPath };
}
