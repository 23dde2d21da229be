import type { TestApp } from "./app.ts";
import { eventually } from "./contract.ts";
import { call, expectStatus } from "./http.ts";

export const CARDS = {
  ok: "4242424242424242",
  declined: "4000000000000002",
  insufficient: "4000000000009995",
  threeDS: "4000002760003184",
};

export const card = (number: string) => ({ type: "card", number, exp_month: 12, exp_year: 2030, cvc: "123" });
export const bank = (account = "000123456789") => ({
  type: "us_bank_account",
  routing_number: "110000000",
  account_number: account,
  account_holder_name: "Jane Shopper",
});

export async function createPayment(t: TestApp, token: string, appId: string, body: Record<string, unknown>) {
  return expectStatus(await call(t, "POST", `/payments/${appId}`, { token, body }), 201);
}

export async function confirm(t: TestApp, token: string, appId: string, paymentId: string, method: unknown) {
  return call(t, "POST", `/payments/${appId}/${paymentId}/confirm`, {
    token,
    body: { payment_method: method },
  });
}

/**
 * Waits until the payment reaches `status` (jobs move it), and returns it; 60 s unless `timeoutMs`
 * (a wait ends when the status comes: the limit only allows for a loaded CI machine).
 */
export async function waitForStatus(
  t: TestApp,
  token: string,
  appId: string,
  paymentId: string,
  status: string,
  timeoutMs = 60_000,
) {
  let last: any;
  try {
    return await eventually(async () => {
      last = expectStatus(await call(t, "GET", `/payments/${appId}/${paymentId}`, { token }), 200);
      return last.status === status ? last : undefined;
    }, timeoutMs);
  } catch {
    throw new Error(
      `payment ${paymentId} stayed ${last?.status} for ${timeoutMs} ms, expected ${status}: ${JSON.stringify(last)}`,
    );
  }
}
