import assert from "node:assert/strict";
import type { LightMyRequestResponse } from "fastify";
import type { TestApp } from "./app.ts";

export interface CallOptions {
  token?: string;
  body?: unknown;
  /** Raw body text, sent as is (for malformed JSON). */
  raw?: string;
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  body: any;
  headers: LightMyRequestResponse["headers"];
  text: string;
}

/** Calls the real HTTP app in-process. */
export async function call(
  t: TestApp,
  method: string,
  url: string,
  options: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | undefined;
  if (options.raw !== undefined) {
    payload = options.raw;
    headers["content-type"] ??= "application/json";
  } else if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await t.app.inject({
    method: method as "GET",
    url,
    headers,
    payload,
  });
  let body: unknown;
  try {
    body = response.body ? JSON.parse(response.body) : undefined;
  } catch {
    body = response.body;
  }
  return { status: response.statusCode, body, headers: response.headers, text: response.body };
}

/** Asserts an RFC 9457 problem with the given status and code, and returns it. */
export function assertProblem(answer: Answer, status: number, code: string) {
  assert.equal(answer.status, status, `expected ${status}, got ${answer.status}: ${answer.text}`);
  assert.match(String(answer.headers["content-type"]), /^application\/problem\+json/);
  assert.equal(answer.body.code, code);
  assert.equal(answer.body.status, status);
  assert.equal(typeof answer.body.title, "string");
  assert.equal(typeof answer.body.detail, "string");
  assert.equal(answer.body.request_id, answer.headers["x-request-id"]);
  return answer.body;
}

export function expectStatus(answer: Answer, status: number) {
  assert.equal(answer.status, status, `expected ${status}, got ${answer.status}: ${answer.text}`);
  return answer.body;
}

let counter = 0;

export async function signup(t: TestApp, overrides: Record<string, string> = {}) {
  counter++;
  const unique = `${Date.now().toString(36)}${counter}`;
  const body = {
    email: `user${unique}@example.com`,
    password: "correct horse battery staple",
    username: `user${unique}`,
    first_name: "Ada",
    last_name: "Lovelace",
    ...overrides,
  };
  const answer = await call(t, "POST", "/auth/signup", { body });
  expectStatus(answer, 201);
  return {
    token: answer.body.token as string,
    user: answer.body.user,
    email: body.email,
    password: body.password,
  };
}

export async function createApp(t: TestApp, token: string, body: Record<string, unknown> = {}) {
  const answer = await call(t, "POST", "/apps", {
    token,
    body: { name: "Shop", app_fee: 0, use_explorer: false, ...body },
  });
  return expectStatus(answer, 201);
}

/**
 * The newest token of `prefix` (`evt_`, `pwr_`) in a link mailed to `email`, as the recipient
 * would read it from their inbox; waits for the mail job. `after` skips mails already read.
 */
export async function mailedToken(t: TestApp, email: string, prefix: string, after = 0): Promise<string> {
  const pattern = new RegExp(`/(${prefix}[A-Za-z0-9_-]+)`);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const mails = t.mailer.to(email).slice(after);
    const found = mails.map((m) => pattern.exec(m.text)?.[1]).filter((v) => v !== undefined);
    if (found.length > 0) return found[found.length - 1] as string;
    if (Date.now() > deadline) throw new Error(`no ${prefix} link mailed to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Verifies the account's address with the link its sign-up mail carried. */
export async function verifyEmail(t: TestApp, email: string) {
  const token = await mailedToken(t, email, "evt_");
  expectStatus(await call(t, "POST", "/auth/verify-email", { body: { token } }), 204);
}

/** An owner with an app, a developer member of it, and an outsider with an app of their own. */
export async function tenantFixture(t: TestApp) {
  const owner = await signup(t);
  const app = await createApp(t, owner.token, { name: "Owner's app" });
  const developer = await signup(t);
  // Only a verified address accepts an invitation (docs/accounts.md).
  await verifyEmail(t, developer.email);
  const invite = await call(t, "POST", `/members/${app.id}`, {
    token: owner.token,
    body: { email: developer.email, role: "developer" },
  });
  expectStatus(invite, 201);
  expectStatus(
    await call(t, "POST", "/members/accept", {
      token: developer.token,
      body: { invite_token: invite.body.invite_token },
    }),
    200,
  );
  const outsider = await signup(t);
  const otherApp = await createApp(t, outsider.token, { name: "Outsider's app" });
  return { owner, developer, outsider, app, otherApp, developerMemberId: invite.body.id as string };
}
