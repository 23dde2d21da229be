import type { TestApp } from "./app.ts";
import { eventually } from "./contract.ts";
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

/** The suite's one poll for effects that run as jobs, kept importable from here for the KYC tests. */
export { eventually };

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

/**
 * A seller onboarded the way a seller does it: the app creates the KYC record, the seller posts
 * the widget's forms one after the other (details, the sandbox's good test bank account, an
 * identity document), and the widget's jobs make and verify the sandbox account. Answers the
 * record once it is completed.
 */
export async function onboardSeller(t: TestApp, appId: string, apiKey: string, identifier: string) {
  const created = expectStatus(
    await createKyc(t, appId, apiKey, { identifier, email: SELLER_DETAILS.email, account_type: "custom" }),
    201,
  ).data;
  const widget = `/kyc/${created.edit_token}`;
  const once = (check: (kyc: any) => boolean) =>
    eventually(async () => {
      const answer = await call(t, "GET", `/apps/${appId}/kycs/${created.id}`, { token: apiKey });
      const kyc = expectStatus(answer, 200).data;
      return check(kyc) ? kyc : undefined;
    }, 60_000);
  expectStatus(await postForm(t, `${widget}/details`, SELLER_DETAILS), 303);
  await once((kyc) => kyc.details_submitted);
  expectStatus(await postForm(t, `${widget}/bank-account`, GOOD_BANK), 303);
  await once((kyc) => kyc.bank_accounts?.length === 1);
  expectStatus(await postFile(t, `${widget}/documents`, "passport.png", Buffer.from("png-bytes")), 303);
  return once((kyc) => kyc.business_status === "completed");
}
