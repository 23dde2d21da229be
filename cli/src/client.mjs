// The SDK client a command uses, from its flags, the environment and what `login` saved, in that
// order of precedence.
import { Client } from "@payments-backend/sdk";
import { loadConfig } from "./config.mjs";

export const DEFAULT_URL = "http://127.0.0.1:3000";

/**
 * The service's URL, the credential and the app a command acts on. Throws a sentence saying what to
 * do when no API key is known, or (with `needApp`) no app.
 */
export async function connection(values, env, { needApp = true } = {}) {
  const config = await loadConfig(env);
  const url = values.url ?? env.PAYMENTS_URL ?? config.url ?? DEFAULT_URL;
  const apiKey = values["api-key"] ?? env.PAYMENTS_API_KEY ?? config.apiKey;
  if (!apiKey) {
    throw new Error("No API key: run `payments login --api-key <sk_…>` or set PAYMENTS_API_KEY");
  }
  // The saved app belongs to the saved key: a key given otherwise names its app with --app.
  const savedKey = apiKey === config.apiKey;
  const appId = values.app ?? (savedKey ? config.appId : undefined);
  if (needApp && !appId) throw new Error("No app: pass --app <id> (or log in with this key)");
  return { client: new Client({ baseUrl: url, apiKey }), url, apiKey, appId: appId ?? "", config };
}
