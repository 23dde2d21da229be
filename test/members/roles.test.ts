// Members' roles (docs/members.md, "Members and roles"): only an app's owners add, change and
// remove its members, and the last owner can be neither demoted nor removed; with two owners one
// can go, and an invitation never accepted can be withdrawn.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus, signup, verifyEmail } from "../helpers/http.ts";

const fx = useTestApp();

describe("members", () => {
  test("only owners manage members", async () => {
    assertProblem(
      await call(fx.app, "POST", `/members/${fx.tenants.app.id}`, {
        token: fx.tenants.developer.token,
        body: { email: "x@example.com", role: "developer" },
      }),
      403,
      "forbidden",
    );
    assertProblem(
      await call(fx.app, "PATCH", `/members/${fx.tenants.app.id}/${fx.tenants.developerMemberId}`, {
        token: fx.tenants.developer.token,
        body: { role: "owner" },
      }),
      403,
      "forbidden",
    );
    assertProblem(
      await call(fx.app, "DELETE", `/members/${fx.tenants.app.id}/${fx.tenants.developerMemberId}`, {
        token: fx.tenants.developer.token,
      }),
      403,
      "forbidden",
    );
  });

  test("the last owner can be neither demoted nor removed; with two owners one can go", async () => {
    const owner = await signup(fx.app);
    const app = await createApp(fx.app, owner.token);
    const [me] = expectStatus(await call(fx.app, "GET", `/members/${app.id}`, { token: owner.token }), 200);
    assertProblem(
      await call(fx.app, "PATCH", `/members/${app.id}/${me.id}`, {
        token: owner.token,
        body: { role: "developer" },
      }),
      409,
      "conflict",
    );
    assertProblem(
      await call(fx.app, "DELETE", `/members/${app.id}/${me.id}`, { token: owner.token }),
      409,
      "conflict",
    );

    const second = await signup(fx.app);
    await verifyEmail(fx.app, second.email);
    const invite = expectStatus(
      await call(fx.app, "POST", `/members/${app.id}`, {
        token: owner.token,
        body: { email: second.email, role: "developer" },
      }),
      201,
    );
    expectStatus(
      await call(fx.app, "POST", "/members/accept", {
        token: second.token,
        body: { invite_token: invite.invite_token },
      }),
      200,
    );
    const promoted = expectStatus(
      await call(fx.app, "PATCH", `/members/${app.id}/${invite.id}`, {
        token: owner.token,
        body: { role: "owner" },
      }),
      200,
    );
    assert.equal(promoted.role, "owner");
    expectStatus(
      await call(fx.app, "PATCH", `/members/${app.id}/${me.id}`, {
        token: second.token,
        body: { role: "developer" },
      }),
      200,
    );
    assertProblem(
      await call(fx.app, "DELETE", `/members/${app.id}/${invite.id}`, { token: second.token }),
      409,
      "conflict",
    );
    // An invitation that was never accepted can be withdrawn.
    const pending = expectStatus(
      await call(fx.app, "POST", `/members/${app.id}`, {
        token: second.token,
        body: { email: "later@example.com", role: "developer" },
      }),
      201,
    );
    expectStatus(
      await call(fx.app, "DELETE", `/members/${app.id}/${pending.id}`, { token: second.token }),
      204,
    );
    assertProblem(
      await call(fx.app, "GET", `/members/${app.id}/${pending.id}`, { token: second.token }),
      404,
      "not_found",
    );
  });
});
