import type { TestApp } from "./app.ts";
import { call, expectStatus } from "./http.ts";

/** Creates a price through the API and returns its answer. */
export async function createPrice(
  t: TestApp,
  token: string,
  appId: string,
  body: Record<string, unknown> = {},
) {
  const answer = await call(t, "POST", `/prices/${appId}`, {
    token,
    body: { name: "Concert ticket", amount: 12.5, currency: "usd", ...body },
  });
  return expectStatus(answer, 201);
}

/** An API key of the app, as the owner creates it. */
export async function apiKeyOf(t: TestApp, ownerToken: string, appId: string): Promise<string> {
  const answer = await call(t, "POST", `/apps/${appId}/api-keys`, {
    token: ownerToken,
    body: { name: "server" },
  });
  return expectStatus(answer, 201).key;
}

/** A seller KYC record of the app, for prices that name their seller. */
export async function createTestKyc(
  t: TestApp,
  token: string,
  appId: string,
  identifier = `seller-${Date.now()}`,
) {
  const answer = await call(t, "POST", `/apps/${appId}/kycs`, { token, body: { identifier } });
  return expectStatus(answer, 201).data as { id: string };
}
