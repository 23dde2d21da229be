import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";

/**
 * The service as a client sees it: real HTTP to a listening server (`buildServedApp`), for
 * journey tests, which use nothing a user could not.
 */
export function publicApi(base: string) {
  async function request(method: string, path: string, token?: string, body?: unknown) {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const answer = await fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await answer.text();
    return { status: answer.status, body: text ? JSON.parse(text) : undefined };
  }

  /** The answer's body, once its status is checked. */
  async function expect(status: number, method: string, path: string, token?: string, body?: unknown) {
    const answer = await request(method, path, token, body);
    assert.equal(answer.status, status, `${method} ${path}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  /** A new user with a unique address; answers the address and the session token. */
  async function signUp(name: string, password = PASSWORD) {
    const unique = `${name}${randomBytes(4).toString("hex")}`;
    const email = `${unique}@example.com`;
    const body = await expect(201, "POST", "/auth/signup", undefined, {
      email,
      password,
      username: unique,
      first_name: name,
      last_name: "Example",
    });
    return { email, token: body.token as string };
  }

  return { request, expect, signUp };
}

export const PASSWORD = "a long enough password";
