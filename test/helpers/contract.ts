import assert from "node:assert/strict";
import type { TestApp } from "./app.ts";
import { assertProblem, call } from "./http.ts";

export interface RouteCase {
  method: string;
  url: string;
  /** A valid body for the route, when it takes one. */
  body?: Record<string, unknown>;
  /** A credential allowed to call the route. */
  token: string;
  /** The route answers a paged list. */
  list?: boolean;
}

/**
 * The checks every authenticated route must pass: 401 with WWW-Authenticate without a credential
 * or with a wrong one, and, for routes with a body, 400 for malformed JSON and for an unknown
 * field; for lists, 400 for each bad paging parameter.
 */
export async function checkRouteBasics(t: TestApp, route: RouteCase) {
  const label = `${route.method} ${route.url}`;
  for (const token of [undefined, "ust_not-a-real-token", "sk_test_not-a-real-key"]) {
    const answer = await call(t, route.method, route.url, { token, body: route.body });
    assertProblem(answer, 401, "unauthenticated");
    assert.match(String(answer.headers["www-authenticate"]), /Bearer/, label);
    assert.match(String(answer.headers["www-authenticate"]), /Basic/, label);
  }
  if (route.body) {
    const malformed = await call(t, route.method, route.url, { token: route.token, raw: '{"name": ' });
    assertProblem(malformed, 400, "validation_failed");
    const unknown = await call(t, route.method, route.url, {
      token: route.token,
      body: { ...route.body, surprise_field: 1 },
    });
    const problem = assertProblem(unknown, 400, "validation_failed");
    assert.ok(
      problem.errors.some((e: { path: string }) => e.path === "/body/surprise_field"),
      `${label}: the unknown field is named: ${JSON.stringify(problem.errors)}`,
    );
  }
  if (route.list) {
    for (const query of ["page=0", "limit=0", "limit=101", "page=abc", "limit=2.5"]) {
      const answer = await call(t, "GET", `${route.url}?${query}`, { token: route.token });
      const problem = assertProblem(answer, 400, "validation_failed");
      const field = query.split("=")[0];
      assert.ok(
        problem.errors.some((e: { path: string }) => e.path === `/query/${field}`),
        `${label}?${query} names /query/${field}: ${JSON.stringify(problem.errors)}`,
      );
    }
  }
}

/**
 * Polls until `check` returns a value, for effects that run as jobs. The 45 s allow for a loaded CI
 * machine (ten test processes on two cores); a passing check returns as soon as it holds.
 */
export async function eventually<T>(
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 45_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value as T;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
