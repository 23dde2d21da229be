import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { buildTestApp, type TestApp } from "../helpers/app.ts";
import { checkRouteBasics, eventually } from "../helpers/contract.ts";
import { assertProblem, call, createApp, expectStatus, signup, tenantFixture } from "../helpers/http.ts";

let t: TestApp;
let f: Awaited<ReturnType<typeof tenantFixture>>;
before(async () => {
  t = await buildTestApp();
  f = await tenantFixture(t);
});
after(() => t.close());

describe("members", () => {
  test("an invitation goes out by mail through a job, and its token lets the invitee join", async () => {
    const invitee = await signup(t);
    const invite = expectStatus(
      await call(t, "POST", `/members/${f.app.id}`, {
        token: f.owner.token,
        body: { email: invitee.email, role: "developer" },
      }),
      201,
    );
    assert.match(invite.invite_token, /^inv_/);
    assert.equal(invite.user_id, null);
    assert.equal(invite.user, null);
    assert.equal(invite.app.id, f.app.id);
    // The job worker sends the mail; the sandbox mailer records it.
    const mail = await eventually(() => t.mailer.to(invitee.email).at(-1));
    assert.match(mail.subject, /invited you/);
    assert.ok(mail.text.includes(invite.invite_token), "the mail carries the token");
    assert.ok(t.logs.join("").includes(`"to":"${invitee.email}"`), "the sandbox mail is logged");
    assert.ok(!t.logs.join("").includes(invite.invite_token), "but not its token");
    // The stored record never answers the token again.
    const read = expectStatus(
      await call(t, "GET", `/members/${f.app.id}/${invite.id}`, { token: f.owner.token }),
      200,
    );
    assert.equal(read.invite_token, null);

    const accepted = expectStatus(
      await call(t, "POST", "/members/accept", {
        token: invitee.token,
        body: { invite_token: invite.invite_token },
      }),
      200,
    );
    assert.equal(accepted.user_id, invitee.user.id);
    assert.equal(accepted.user.username, invitee.user.username);
    assert.equal(accepted.app.permissions.can_edit_members, false);
    expectStatus(await call(t, "GET", `/apps/${f.app.id}`, { token: invitee.token }), 200);
    // A token works once.
    assertProblem(
      await call(t, "POST", "/members/accept", {
        token: invitee.token,
        body: { invite_token: invite.invite_token },
      }),
      404,
      "not_found",
    );
  });

  test("an invitation cannot be accepted by another account, and a pending invitee has no access", async () => {
    const invitee = await signup(t);
    const stranger = await signup(t);
    const invite = expectStatus(
      await call(t, "POST", `/members/${f.app.id}`, {
        token: f.owner.token,
        body: { email: invitee.email, role: "owner" },
      }),
      201,
    );
    assertProblem(await call(t, "GET", `/apps/${f.app.id}`, { token: invitee.token }), 404, "not_found");
    assertProblem(
      await call(t, "POST", "/members/accept", {
        token: stranger.token,
        body: { invite_token: invite.invite_token },
      }),
      403,
      "forbidden",
    );
    assertProblem(
      await call(t, "POST", `/members/${f.app.id}`, {
        token: f.owner.token,
        body: { email: invitee.email, role: "developer" },
      }),
      409,
      "conflict",
    );
  });

  test("list and read, with paging", async () => {
    const list = await call(t, "GET", `/members/${f.app.id}?limit=1`, { token: f.developer.token });
    assert.equal(expectStatus(list, 200).length, 1);
    assert.ok(Number(list.headers["x-total-count"]) >= 2);
    const one = expectStatus(
      await call(t, "GET", `/members/${f.app.id}/${f.developerMemberId}`, { token: f.developer.token }),
      200,
    );
    assert.deepEqual(Object.keys(one).sort(), [
      "app",
      "created_at",
      "email",
      "id",
      "invite_token",
      "role",
      "updated_at",
      "user",
      "user_id",
    ]);
    assert.equal(one.role, "developer");
  });

  test("only owners manage members", async () => {
    assertProblem(
      await call(t, "POST", `/members/${f.app.id}`, {
        token: f.developer.token,
        body: { email: "x@example.com", role: "developer" },
      }),
      403,
      "forbidden",
    );
    assertProblem(
      await call(t, "PATCH", `/members/${f.app.id}/${f.developerMemberId}`, {
        token: f.developer.token,
        body: { role: "owner" },
      }),
      403,
      "forbidden",
    );
    assertProblem(
      await call(t, "DELETE", `/members/${f.app.id}/${f.developerMemberId}`, { token: f.developer.token }),
      403,
      "forbidden",
    );
  });

  test("the last owner can be neither demoted nor removed; with two owners one can go", async () => {
    const owner = await signup(t);
    const app = await createApp(t, owner.token);
    const [me] = expectStatus(await call(t, "GET", `/members/${app.id}`, { token: owner.token }), 200);
    assertProblem(
      await call(t, "PATCH", `/members/${app.id}/${me.id}`, {
        token: owner.token,
        body: { role: "developer" },
      }),
      409,
      "conflict",
    );
    assertProblem(
      await call(t, "DELETE", `/members/${app.id}/${me.id}`, { token: owner.token }),
      409,
      "conflict",
    );

    const second = await signup(t);
    const invite = expectStatus(
      await call(t, "POST", `/members/${app.id}`, {
        token: owner.token,
        body: { email: second.email, role: "developer" },
      }),
      201,
    );
    expectStatus(
      await call(t, "POST", "/members/accept", {
        token: second.token,
        body: { invite_token: invite.invite_token },
      }),
      200,
    );
    const promoted = expectStatus(
      await call(t, "PATCH", `/members/${app.id}/${invite.id}`, {
        token: owner.token,
        body: { role: "owner" },
      }),
      200,
    );
    assert.equal(promoted.role, "owner");
    expectStatus(
      await call(t, "PATCH", `/members/${app.id}/${me.id}`, {
        token: second.token,
        body: { role: "developer" },
      }),
      200,
    );
    assertProblem(
      await call(t, "DELETE", `/members/${app.id}/${invite.id}`, { token: second.token }),
      409,
      "conflict",
    );
    // An invitation that was never accepted can be withdrawn.
    const pending = expectStatus(
      await call(t, "POST", `/members/${app.id}`, {
        token: second.token,
        body: { email: "later@example.com", role: "developer" },
      }),
      201,
    );
    expectStatus(await call(t, "DELETE", `/members/${app.id}/${pending.id}`, { token: second.token }), 204);
    assertProblem(
      await call(t, "GET", `/members/${app.id}/${pending.id}`, { token: second.token }),
      404,
      "not_found",
    );
  });

  test("tenancy: another app's members are 404", async () => {
    assertProblem(
      await call(t, "GET", `/members/${f.otherApp.id}`, { token: f.owner.token }),
      404,
      "not_found",
    );
    assertProblem(
      await call(t, "GET", `/members/${f.app.id}/${f.developerMemberId}`, { token: f.outsider.token }),
      404,
      "not_found",
    );
    // A member id from one app, asked for under another the caller owns, is not found either.
    const mine = await createApp(t, f.owner.token);
    assertProblem(
      await call(t, "GET", `/members/${mine.id}/${f.developerMemberId}`, { token: f.owner.token }),
      404,
      "not_found",
    );
  });

  test("a refused invitation leaves no row and sends no mail", async () => {
    assertProblem(
      await call(t, "POST", `/members/${f.app.id}`, {
        token: f.owner.token,
        body: { email: "bad", role: "developer" },
      }),
      400,
      "validation_failed",
    );
    assertProblem(
      await call(t, "POST", `/members/${f.app.id}`, {
        token: f.owner.token,
        body: { email: "ok@example.com", role: "admin" },
      }),
      400,
      "validation_failed",
    );
    const list = expectStatus(
      await call(t, "GET", `/members/${f.app.id}?limit=100`, { token: f.owner.token }),
      200,
    );
    assert.ok(!list.some((m: { email: string }) => m.email === "ok@example.com" || m.email === "bad"));
    // A valid invitation sent afterwards arrives; the refused ones never do.
    expectStatus(
      await call(t, "POST", `/members/${f.app.id}`, {
        token: f.owner.token,
        body: { email: "valid@example.com", role: "developer" },
      }),
      201,
    );
    await eventually(() => t.mailer.to("valid@example.com").at(-1));
    assert.deepEqual(t.mailer.to("ok@example.com"), []);
    assert.deepEqual(t.mailer.to("bad"), []);
  });

  test("basics for every route", async () => {
    const token = f.owner.token;
    await checkRouteBasics(t, { method: "GET", url: `/members/${f.app.id}`, token, list: true });
    await checkRouteBasics(t, { method: "GET", url: `/members/${f.app.id}/${f.developerMemberId}`, token });
    await checkRouteBasics(t, {
      method: "POST",
      url: `/members/${f.app.id}`,
      token,
      body: { email: "n@example.com", role: "developer" },
    });
    await checkRouteBasics(t, {
      method: "POST",
      url: "/members/accept",
      token,
      body: { invite_token: "inv_x" },
    });
    await checkRouteBasics(t, {
      method: "PATCH",
      url: `/members/${f.app.id}/${f.developerMemberId}`,
      token,
      body: { role: "developer" },
    });
    await checkRouteBasics(t, {
      method: "DELETE",
      url: `/members/${f.app.id}/${f.developerMemberId}`,
      token,
    });
  });
});
