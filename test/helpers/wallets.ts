import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { decryptWalletSecret } from "../../src/modules/wallets/secrets.ts";
import { buildTestApp, type TestApp } from "./app.ts";
import { type Answer, type CallOptions, call, expectStatus } from "./http.ts";

export const newMasterKey = () => randomBytes(32).toString("base64");

/**
 * A test app with its own master key, that remembers every answer it gave and every key material
 * the suite handled, so a file can end by proving none of it leaked.
 */
export async function buildWalletTestApp() {
  const masterKey = newMasterKey();
  const t = await buildTestApp({ SECRETS_MASTER_KEY: masterKey });
  const answers: string[] = [];
  const secrets = new Set<string>();
  return {
    t,
    masterKey,
    secrets,
    async call(method: string, url: string, options: CallOptions = {}): Promise<Answer> {
      const answer = await call(t, method, url, options);
      answers.push(answer.text);
      return answer;
    },
    /** Remembers the server-side secret of a wallet (generated keys included) for the leak check. */
    async remember(walletId: string) {
      const { secret } = await decryptWalletSecret(t.deps, walletId);
      secrets.add(secret);
      return secret;
    },
    /** Fails if any remembered secret, in any of its usual spellings, is in an answer or a log line. */
    assertNoLeak() {
      assert.ok(secrets.size > 0, "the leak check needs secrets to look for");
      assert.ok(t.logs.length > 0, "the leak check needs the log to be captured");
      const haystacks = [...answers, ...t.logs];
      for (const secret of secrets) {
        const spellings = new Set([secret, secret.replace(/^0x/, ""), secret.replace(/^ed25519:/, "")]);
        for (const spelling of spellings) {
          for (const text of haystacks) {
            assert.ok(!text.includes(spelling), "a secret appeared in a response or a log line");
          }
        }
      }
    },
  };
}

export type WalletTestApp = Awaited<ReturnType<typeof buildWalletTestApp>>;

export async function createWallet(
  w: { call: WalletTestApp["call"] },
  token: string,
  appId: string,
  body: Record<string, unknown>,
) {
  return expectStatus(
    await w.call("POST", `/wallets/${appId}`, { token, body: { name: "Wallet", ...body } }),
    201,
  );
}

export type { TestApp };
