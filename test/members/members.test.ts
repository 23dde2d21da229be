import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { FakeClock } from "../helpers/clock.ts";
import { checkRouteBasics, eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus, signup, verifyEmail } from "../helpers/http.ts";

// Sessions outlive the week an invitation lasts, so a test can move the clock past it.
const clock = new FakeClock();
const fx = useTestApp({ SESSION_TTL_HOURS: "720" }, { now: clock.now });

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
    const mail = await eventually(() =>
      fx.app.mailer.to(invitee.email).find((m) => m.subject.includes("invited you")),
    );
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
    assert.ok(Date.parse(read.invite_expires_at) > Date.now() + 6.9 * 24 * 3600_000, "valid a week");

    // Only a verified address accepts: the inviting owner holds the token too.
    const unverified = await call(fx.app, "POST", "/members/accept", {
      token: invitee.token,
      body: { invite_token: invite.invite_token },
    });
    assert.match(assertProblem(unverified, 403, "forbidden").detail, /[Vv]erify your email/);
    await verifyEmail(fx.app, invitee.email);
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

  test("an invitation expires after 7 days; the owner resends it with a new token and a new week", async () => {
    const invitee = await signup(fx.app);
    await verifyEmail(fx.app, invitee.email);
    const invite = expectStatus(
      await call(fx.app, "POST", `/members/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: { email: invitee.email, role: "developer" },
      }),
      201,
    );
    clock.advance(7 * 24 * 3600_000 + 1000);
    try {
      const expired = await call(fx.app, "POST", "/members/accept", {
        token: invitee.token,
        body: { invite_token: invite.invite_token },
      });
      assert.match(assertProblem(expired, 404, "not_found").detail, /expired/);
      assert.equal((await call(fx.app, "GET", `/invitations/${invite.invite_token}`)).status, 404);
      // A developer cannot resend; the owner can.
      assertProblem(
        await call(fx.app, "POST", `/members/${fx.tenants.app.id}/${invite.id}/resend`, {
          token: fx.tenants.developer.token,
        }),
        403,
        "forbidden",
      );
      const resent = expectStatus(
        await call(fx.app, "POST", `/members/${fx.tenants.app.id}/${invite.id}/resend`, {
          token: fx.tenants.owner.token,
        }),
        200,
      );
      assert.notEqual(resent.invite_token, invite.invite_token);
      assert.ok(Date.parse(resent.invite_expires_at) > clock.now().getTime() + 6.9 * 24 * 3600_000);
      const mail = await eventually(() =>
        fx.app.mailer.to(invitee.email).find((m) => m.text.includes(resent.invite_token)),
      );
      assert.match(mail.subject, /invited you/);
      // The old link is dead; the new one works.
      assertProblem(
        await call(fx.app, "POST", "/members/accept", {
          token: invitee.token,
          body: { invite_token: invite.invite_token },
        }),
        404,
        "not_found",
      );
      const accepted = expectStatus(
        await call(fx.app, "POST", "/members/accept", {
          token: invitee.token,
          body: { invite_token: resent.invite_token },
        }),
        200,
      );
      assert.equal(accepted.invite_expires_at, null);
      assertProblem(
        await call(fx.app, "POST", `/members/${fx.tenants.app.id}/${invite.id}/resend`, {
          token: fx.tenants.owner.token,
        }),
        409,
        "conflict",
      );
    } finally {
      clock.reset();
    }
  });

  test("resending an invitation already accepted is 409 (and answers, on the embedded database too)", async () => {
    assertProblem(
      await call(fx.app, "POST", `/members/${fx.tenants.app.id}/${fx.tenants.developerMemberId}/resend`, {
        token: fx.tenants.owner.token,
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
      "invite_expires_at",
      "invite_token",
      "role",
      "updated_at",
      "user",
      "user_id",
    ]);
    assert.equal(one.role, "developer");
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
