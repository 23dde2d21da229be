import type { TestApp } from "./app.ts";
import { type Answer, call, expectStatus, tenantFixture } from "./http.ts";

export const RETURN_URL = "https://shop.example.com/kyc-done";

/** A tenant whose app has a KYC return URL and an API key, plus the outsider's own API key. */
export async function kycFixture(t: TestApp) {
  const tenant = await tenantFixture(t);
  expectStatus(
    await call(t, "PATCH", `/apps/${tenant.app.id}`, {
      token: tenant.owner.token,
      body: { kyc_return_url: RETURN_URL, type: "marketplace", app_fee: 2.5 },
    }),
    200,
  );
  const key = expectStatus(
    await call(t, "POST", `/apps/${tenant.app.id}/api-keys`, {
      token: tenant.owner.token,
      body: { name: "server" },
    }),
    201,
  );
  const otherKey = expectStatus(
    await call(t, "POST", `/apps/${tenant.otherApp.id}/api-keys`, {
      token: tenant.outsider.token,
      body: { name: "server" },
    }),
    201,
  );
  return { ...tenant, apiKey: key.key as string, otherApiKey: otherKey.key as string };
}

export const basic = (key: string) => ({
  authorization: `Basic ${Buffer.from(`${key}:`).toString("base64")}`,
});

export async function createKyc(t: TestApp, appId: string, apiKey: string, body: Record<string, unknown>) {
  return call(t, "POST", `/apps/${appId}/kycs`, { token: apiKey, body });
}

/** Posts an HTML form the way a browser does (urlencoded), to a widget endpoint. */
export async function postForm(t: TestApp, url: string, fields: Record<string, string>): Promise<Answer> {
  const response = await t.app.inject({
    method: "POST",
    url,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams(fields).toString(),
  });
  return { status: response.statusCode, body: response.body, headers: response.headers, text: response.body };
}

/** Posts one file as multipart/form-data, as the widget's document form does. */
export async function postFile(
  t: TestApp,
  url: string,
  filename: string,
  content: Buffer,
  contentType = "image/png",
): Promise<Answer> {
  const boundary = "----kyctestboundary";
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="${filename}"\r\n` +
        `Content-Type: ${contentType}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await t.app.inject({
    method: "POST",
    url,
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  return { status: response.statusCode, body: response.body, headers: response.headers, text: response.body };
}

/** Polls until `check` answers a value (the job worker runs on its own schedule). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export const SELLER_DETAILS = {
  first_name: "Grace",
  last_name: "Hopper",
  email: "grace@example.com",
  dob: "1980-12-09",
  country: "US",
  address_line1: "1 Main Street",
  city: "Arlington",
  postal_code: "22201",
  tos: "accepted",
};

export const GOOD_BANK = {
  account_holder_name: "Grace Hopper",
  routing_number: "110000000",
  account_number: "000123456789",
  country: "US",
  currency: "usd",
};
