import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkRouteBasics, eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus, signup } from "../helpers/http.ts";

const fx = useTestApp();

describe("members", () => {
  test("an invitation goes out by mail through a job, and its token lets the invitee join", async () => {
    const invitee = await signup(fx.app);
    const invite = expectStatus(
      await call(fx.app, "POST", `/members/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: { email: invitee.email, role: "developer" },
      }),
      201,
    );
    assert.match(invite.invite_token, /^inv_/);
    assert.equal(invite.user_id, null);
    assert.equal(invite.user, null);
    assert.equal(invite.app.id, fx.tenants.app.id);
    // The job worker sends the mail; the sandbox mailer records it.
    const mail = await eventually(() => fx.app.mailer.to(invitee.email).at(-1));
    assert.match(mail.subject, /invited you/);
    assert.ok(mail.text.includes(invite.invite_token), "the mail carries the token");
    assert.ok(fx.app.logs.join("").includes(`"to":"${invitee.email}"`), "the sandbox mail is logged");
    assert.ok(!fx.app.logs.join("").includes(invite.invite_token), "but not its token");
    // The stored record never answers the token again.
    const read = expectStatus(
      await call(fx.app, "GET", `/members/${fx.tenants.app.id}/${invite.id}`, {
        token: fx.tenants.owner.token,
      }),
      200,
    );
    assert.equal(read.invite_token, null);

    const accepted = expectStatus(
      await call(fx.app, "POST", "/members/accept", {
        token: invitee.token,
        body: { invite_token: invite.invite_token },
      }),
      200,
    );
    assert.equal(accepted.user_id, invitee.user.id);
    assert.equal(accepted.user.username, invitee.user.username);
    assert.equal(accepted.app.permissions.can_edit_members, false);
    expectStatus(await call(fx.app, "GET", `/apps/${fx.tenants.app.id}`, { token: invitee.token }), 200);
    // A token works once.
    assertProblem(
      await call(fx.app, "POST", "/members/accept", {
        token: invitee.token,
        body: { invite_token: invite.invite_token },
      }),
      404,
      "not_found",
    );
  });

  test("an invitation cannot be accepted by another account, and a pending invitee has no access", async () => {
    const invitee = await signup(fx.app);
    const stranger = await signup(fx.app);
    const invite = expectStatus(
      await call(fx.app, "POST", `/members/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: { email: invitee.email, role: "owner" },
      }),
      201,
    );
    assertProblem(
      await call(fx.app, "GET", `/apps/${fx.tenants.app.id}`, { token: invitee.token }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "POST", "/members/accept", {
        token: stranger.token,
        body: { invite_token: invite.invite_token },
      }),
      403,
      "forbidden",
    );
    assertProblem(
      await call(fx.app, "POST", `/members/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: { email: invitee.email, role: "developer" },
      }),
      409,
      "conflict",
    );
  });

  test("list and read, with paging", async () => {
    const list = await call(fx.app, "GET", `/members/${fx.tenants.app.id}?limit=1`, {
      token: fx.tenants.developer.token,
    });
    assert.equal(expectStatus(list, 200).length, 1);
    assert.ok(Number(list.headers["x-total-count"]) >= 2);
    const one = expectStatus(
      await call(fx.app, "GET", `/members/${fx.tenants.app.id}/${fx.tenants.developerMemberId}`, {
        token: fx.tenants.developer.token,
      }),
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

  test("tenancy: another app's members are 404", async () => {
    assertProblem(
      await call(fx.app, "GET", `/members/${fx.tenants.otherApp.id}`, { token: fx.tenants.owner.token }),
      404,
      "not_found",
    );
    assertProblem(
      await call(fx.app, "GET", `/members/${fx.tenants.app.id}/${fx.tenants.developerMemberId}`, {
        token: fx.tenants.outsider.token,
      }),
      404,
      "not_found",
    );
    // A member id from one app, asked for under another the caller owns, is not found either.
    const mine = await createApp(fx.app, fx.tenants.owner.token);
    assertProblem(
      await call(fx.app, "GET", `/members/${mine.id}/${fx.tenants.developerMemberId}`, {
        token: fx.tenants.owner.token,
      }),
      404,
      "not_found",
    );
  });

  test("a refused invitation leaves no row and sends no mail", async () => {
    assertProblem(
      await call(fx.app, "POST", `/members/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: { email: "bad", role: "developer" },
      }),
      400,
      "validation_failed",
    );
    assertProblem(
      await call(fx.app, "POST", `/members/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: { email: "ok@example.com", role: "admin" },
      }),
      400,
      "validation_failed",
    );
    const list = expectStatus(
      await call(fx.app, "GET", `/members/${fx.tenants.app.id}?limit=100`, { token: fx.tenants.owner.token }),
      200,
    );
    assert.ok(!list.some((m: { email: string }) => m.email === "ok@example.com" || m.email === "bad"));
    // A valid invitation sent afterwards arrives; the refused ones never do.
    expectStatus(
      await call(fx.app, "POST", `/members/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: { email: "valid@example.com", role: "developer" },
      }),
      201,
    );
    await eventually(() => fx.app.mailer.to("valid@example.com").at(-1));
    assert.deepEqual(fx.app.mailer.to("ok@example.com"), []);
    assert.deepEqual(fx.app.mailer.to("bad"), []);
  });

  test("basics for every route", async () => {
    const token = fx.tenants.owner.token;
    await checkRouteBasics(fx.app, {
      method: "GET",
      url: `/members/${fx.tenants.app.id}`,
      token,
      list: true,
    });
    await checkRouteBasics(fx.app, {
      method: "GET",
      url: `/members/${fx.tenants.app.id}/${fx.tenants.developerMemberId}`,
      token,
    });
    await checkRouteBasics(fx.app, {
      method: "POST",
      url: `/members/${fx.tenants.app.id}`,
      token,
      body: { email: "n@example.com", role: "developer" },
    });
    await checkRouteBasics(fx.app, {
      method: "POST",
      url: "/members/accept",
      token,
      body: { invite_token: "inv_x" },
    });
    await checkRouteBasics(fx.app, {
      method: "PATCH",
      url: `/members/${fx.tenants.app.id}/${fx.tenants.developerMemberId}`,
      token,
      body: { role: "developer" },
    });
    await checkRouteBasics(fx.app, {
      method: "DELETE",
      url: `/members/${fx.tenants.app.id}/${fx.tenants.developerMemberId}`,
      token,
    });
  });
});
