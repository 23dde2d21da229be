import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loadConfig } from "../../src/config.ts";
import { pruneSandboxMailJob } from "../../src/modules/sandbox-inbox/service.ts";
import { buildTestApp } from "../helpers/app.ts";
import { checkRouteBasics, eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { SmtpInbox } from "../helpers/smtp.ts";

const fx = useTestApp();

const inbox = async (token: string, query = "") =>
  expectStatus(await call(fx.app, "GET", `/sandbox/mail${query}`, { token }), 200) as {
    id: string;
    to: string;
    subject: string;
    text: string;
    app_id: string | null;
  }[];

async function invite(
  email: string,
  role = "developer",
  appId = fx.tenants.app.id,
  token = fx.tenants.owner.token,
) {
  return expectStatus(await call(fx.app, "POST", `/members/${appId}`, { token, body: { email, role } }), 201);
}

describe("the invitation mail and page", () => {
  test("the mail links to the page, which shows the app and the role under a strict policy", async () => {
    const invited = await invite("page-reader@example.com");
    const mail = await eventually(async () =>
      (await inbox(fx.tenants.owner.token, "?to=page-reader@example.com")).at(0),
    );
    const link = `${fx.app.deps.config.publicUrl}/invitations/${invited.invite_token}`;
    assert.ok(mail.text.includes(link), mail.text);
    assert.equal(mail.app_id, fx.tenants.app.id);

    const page = await call(fx.app, "GET", `/invitations/${invited.invite_token}`);
    assert.equal(page.status, 200);
    assert.match(String(page.headers["content-type"]), /text\/html/);
    const csp = String(page.headers["content-security-policy"]);
    for (const part of [
      "default-src 'none'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ]) {
      assert.ok(csp.includes(part), csp);
    }
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce && page.text.includes(`<script nonce="${nonce}">`), "the script runs by its nonce");
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.equal(page.headers["referrer-policy"], "no-referrer");
    assert.equal(page.headers["cache-control"], "no-store");
    assert.match(page.text, /Owner&#39;s app/);
    assert.match(page.text, /page-reader@example\.com/);
    assert.ok(
      !fx.app.logs.join("").includes(invited.invite_token),
      "neither the mail's log copy nor the request log",
    );
  });

  test("an app name cannot inject markup into the page", async () => {
    const owner = await signup(fx.app);
    const app = await createApp(fx.app, owner.token, { name: "</script><script>alert(1)</script>" });
    const invited = await invite("escaped@example.com", "developer", app.id, owner.token);
    const page = await call(fx.app, "GET", `/invitations/${invited.invite_token}`);
    assert.equal(page.status, 200);
    assert.ok(!page.text.includes("<script>alert(1)"), "escaped in markup");
    assert.ok(page.text.includes("\\u003c/script>\\u003cscript>alert(1)"), "and in the data block");
  });

  test("an unknown, used or withdrawn token answers a 404 page", async () => {
    const withdrawn = await invite("withdrawn@example.com");
    expectStatus(
      await call(fx.app, "DELETE", `/members/${fx.tenants.app.id}/${withdrawn.id}`, {
        token: fx.tenants.owner.token,
      }),
      204,
    );
    for (const token of [withdrawn.invite_token, "inv_unknown"]) {
      const page = await call(fx.app, "GET", `/invitations/${token}`);
      assert.equal(page.status, 404);
      assert.match(String(page.headers["content-type"]), /text\/html/);
      assert.match(page.text, /not valid/);
    }
  });
});

describe("the sandbox inbox", () => {
  test("a user reads the mail to their own address and about the apps they own, nothing else", async () => {
    const invitee = await signup(fx.app);
    await invite(invitee.email);
    await invite("someone-else@example.com");
    // Their sign-up's verification mail and the invitation.
    const own = await eventually(async () => {
      const mails = await inbox(invitee.token);
      return mails.length === 2 ? mails : undefined;
    });
    assert.deepEqual(
      own.map((m) => m.to),
      [invitee.email, invitee.email],
    );
    assert.ok(own.some((m) => /\/invitations\/inv_/.test(m.text)));
    assert.ok(own.some((m) => /\/verify-email\/evt_/.test(m.text)));
    // The owner sees every invitation of the app; the developer member and the outsider do not.
    const byOwner = await eventually(async () => {
      const mails = await inbox(fx.tenants.owner.token, "?to=someone-else@example.com");
      return mails.length ? mails : undefined;
    });
    assert.equal(byOwner.length, 1);
    assert.deepEqual(await inbox(fx.tenants.developer.token, "?to=someone-else@example.com"), []);
    assert.deepEqual(await inbox(fx.tenants.outsider.token, `?to=${encodeURIComponent(invitee.email)}`), []);
    assert.ok(
      (await inbox(fx.tenants.owner.token)).every(
        (m) => m.app_id === fx.tenants.app.id || m.to === fx.tenants.owner.email,
      ),
    );
  });

  test("lists with paging headers; API keys are refused; bad filters are 400", async () => {
    const list = await call(fx.app, "GET", "/sandbox/mail?limit=1", { token: fx.tenants.owner.token });
    expectStatus(list, 200);
    assert.equal(list.body.length, 1);
    assert.ok(Number(list.headers["x-total-count"]) >= 2);
    assert.match(String(list.headers.link), /rel="next"/);
    await checkRouteBasics(fx.app, {
      method: "GET",
      url: "/sandbox/mail",
      token: fx.tenants.owner.token,
      list: true,
    });
    const key = expectStatus(
      await call(fx.app, "POST", `/apps/${fx.tenants.app.id}/api-keys`, {
        token: fx.tenants.owner.token,
        body: { name: "k" },
      }),
      201,
    ).key;
    assertProblem(await call(fx.app, "GET", "/sandbox/mail", { token: key }), 403, "forbidden");
    const problem = assertProblem(
      await call(fx.app, "GET", "/sandbox/mail?to=not-an-address", { token: fx.tenants.owner.token }),
      400,
      "validation_failed",
    );
    assert.ok(problem.errors.some((e: { path: string }) => e.path === "/query/to"));
    const page = await call(fx.app, "GET", "/sandbox/mail/inbox");
    assert.equal(page.status, 200);
    assert.match(String(page.headers["content-security-policy"]), /default-src 'none'/);
  });

  test("mails older than SANDBOX_MAIL_RETENTION_HOURS are pruned", async () => {
    const before = (await inbox(fx.tenants.owner.token, "?limit=100")).length;
    assert.ok(before > 0);
    const soon = { ...fx.app.deps, now: () => new Date(Date.now() + 71 * 3600_000) };
    await pruneSandboxMailJob(soon).handle({}, { id: "test", retryCount: 0 });
    assert.equal((await inbox(fx.tenants.owner.token, "?limit=100")).length, before, "kept within 72 hours");
    const later = { ...fx.app.deps, now: () => new Date(Date.now() + 73 * 3600_000) };
    await pruneSandboxMailJob(later).handle({}, { id: "test", retryCount: 0 });
    assert.deepEqual(await inbox(fx.tenants.owner.token), []);
  });
});

describe("outside sandbox mode", () => {
  test("invitations go out over SMTP; the inbox does not exist and mails are not stored", async () => {
    const smtp = new SmtpInbox();
    const live = await buildTestApp({
      SANDBOX: "false",
      PAYMENTS_PROVIDER: "sandbox",
      CHAINS: "sandbox",
      SMTP_URL: await smtp.start(),
      MAIL_FROM: "Shop <no-reply@shop.example>",
    });
    try {
      const user = await signup(live);
      for (const url of ["/sandbox/mail", "/sandbox/mail/inbox"]) {
        assertProblem(await call(live, "GET", url, { token: user.token }), 404, "not_found");
      }
      // In live mode an app's owner has a verified address: the link comes over SMTP too.
      assertProblem(
        await call(live, "POST", "/apps", {
          token: user.token,
          body: { name: "Shop", app_fee: 0, use_explorer: false },
        }),
        403,
        "forbidden",
      );
      const verification = await eventually(() => smtp.to(user.email).at(0), 30_000);
      const token = /\/verify-email\/(evt_[A-Za-z0-9_-]+)/.exec(verification.text)?.[1];
      assert.ok(token, verification.text);
      expectStatus(await call(live, "POST", "/auth/verify-email", { body: { token } }), 204);
      const app = await createApp(live, user.token);
      expectStatus(
        await call(live, "POST", `/members/${app.id}`, {
          token: user.token,
          body: { email: "live@example.com", role: "developer" },
        }),
        201,
      );
      const mail = await eventually(() => smtp.to("live@example.com").at(0), 30_000);
      assert.equal(mail.from, "no-reply@shop.example");
      assert.match(mail.text, /\/invitations\/inv_[A-Za-z0-9_-]+/, "the invitation link arrived");
      assert.deepEqual(live.mailer.sent, [], "the sandbox mailer is not used");
      const rows = await live.deps.db.execute("select count(*)::int as n from sandbox_mails");
      assert.equal((rows as unknown as { rows: { n: number }[] }).rows[0].n, 0);
    } finally {
      await live.close();
      await smtp.stop();
    }
  });
});

test("mail settings: live mode needs SMTP_URL; a bad SMTP_URL or MAIL_FROM is named", () => {
  const live = { SANDBOX: "false", PAYMENTS_PROVIDER: "sandbox", CHAINS: "sandbox" };
  assert.throws(() => loadConfig(live), /SMTP_URL/);
  assert.throws(() => loadConfig({ ...live, SMTP_URL: "http://mail.example" }), /SMTP_URL/);
  assert.throws(() => loadConfig({ SMTP_URL: "not a url" }), /SMTP_URL/);
  assert.throws(() => loadConfig({ MAIL_FROM: "nobody" }), /MAIL_FROM/);
  assert.deepEqual(loadConfig({ ...live, SMTP_URL: "smtps://u:p@mail.example:465" }).mail, {
    transport: "smtp",
    from: "Payments <no-reply@localhost.localdomain>",
    smtpUrl: "smtps://u:p@mail.example:465",
  });
  assert.equal(loadConfig({}).mail.transport, "sandbox", "test mode keeps mail in the sandbox inbox");
});
