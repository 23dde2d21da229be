// `payments login --api-key <key> [--url <URL>]`: checks the key against the service (its app is
// what `GET /apps` answers an API key) and saves both, so later commands need neither.
import { Client } from "@payments-backend/sdk";
import { DEFAULT_URL } from "./client.mjs";
import { loadConfig, saveConfig } from "./config.mjs";
import { UsageError } from "./usage-error.mjs";

export async function login(values, io) {
  const apiKey = values["api-key"];
  if (!apiKey) throw new UsageError("login needs --api-key <sk_…> (create one in the dashboard: API keys)");
  if (!/^sk_(test|live)_/.test(apiKey)) throw new UsageError("An API key starts with sk_test_ or sk_live_");
  const config = await loadConfig(io.env);
  const url = values.url ?? io.env.PAYMENTS_URL ?? config.url ?? DEFAULT_URL;
  const client = new Client({ baseUrl: url, apiKey });
  const [app] = (await client.apps.list().page()).data;
  if (!app) throw new Error("The service answered no app for this key");
  const path = await saveConfig(
    {
      ...config,
      url,
      apiKey,
      appId: app.id,
      appName: app.name,
      // Another app's events are signed with a secret of their own.
      listenSecret: config.appId === app.id ? config.listenSecret : undefined,
    },
    io.env,
  );
  const mode = apiKey.startsWith("sk_test_") ? "test mode" : "LIVE mode";
  io.out.write(`Logged in to ${url} as app ${app.id} (${app.name}), ${mode}.\nSaved in ${path}\n`);
}
