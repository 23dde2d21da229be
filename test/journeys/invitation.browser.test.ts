// Journey: an owner invites someone; the invitee finds the mail in the sandbox inbox, follows its
// link in a browser, signs in (or signs up) on the invitation page and accepts; the app is then
// theirs to use through the API. Only public interfaces: HTTP and the hosted pages in Chromium.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "../helpers/app.ts";
import { buildServedApp, launchBrowser } from "../helpers/browser.ts";
import { eventually } from "../helpers/contract.ts";
import { PASSWORD, publicApi } from "../helpers/public-api.ts";

let t: TestApp;
let base: string;
let browser: Browser;
let api: ReturnType<typeof publicApi>;

before(async () => {
  ({ t, base } = await buildServedApp());
  api = publicApi(base);
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await t?.close();
});

/** The verification link mailed to `to` at sign-up, read from their sandbox inbox. */
async function verificationLink(readerToken: string, to: string): Promise<string> {
  const mail = await eventually(async () => {
    const mails = await api.expect(200, "GET", `/sandbox/mail?to=${encodeURIComponent(to)}`, readerToken);
    return mails.find((m: { subject: string }) => m.subject.includes("Confirm your email"));
  });
  const link = new RegExp(`${base}/verify-email/\\S+`).exec(mail.text)?.[0];
  assert.ok(link, mail.text);
  return link;
}

/** Opens the verification link in its own tab and confirms, as the mail's reader would. */
async function confirmAddress(link: string) {
  const tab = await browser.newPage();
  assert.equal((await tab.goto(link))?.status(), 200);
  await tab.click("#verify");
  await tab.getByText("Your address is verified").waitFor();
  await tab.close();
}

/** The newest mail in `reader`'s sandbox inbox to `to`, once the mail job has sent it. */
async function inboxMail(readerToken: string, to: string) {
  return eventually(async () => {
    const mails = await api.expect(200, "GET", `/sandbox/mail?to=${encodeURIComponent(to)}`, readerToken);
    return mails.find((mail: { subject: string }) => mail.subject.includes("invited you"));
  });
}

function watchPolicy(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

let owner: { email: string; token: string };
let appId: string;

test("the invitee reads the mail in the sandbox inbox, opens the link, signs in and accepts", async () => {
  owner = await api.signUp("owner");
  appId = (
    await api.expect(201, "POST", "/apps", owner.token, {
      name: "Lighthouse",
      app_fee: 0,
      use_explorer: false,
    })
  ).id;
  const invitee = await api.signUp("invitee");
  const invite = await api.expect(201, "POST", `/members/${appId}`, owner.token, {
    email: invitee.email,
    role: "developer",
  });
  // Not a member until accepted.
  assert.equal((await api.request("GET", `/apps/${appId}`, invitee.token)).status, 404);

  // The mail, read in full from the sandbox inbox (the log copy masks the token).
  const mail = await inboxMail(invitee.token, invitee.email);
  assert.equal(mail.to, invitee.email);
  const link = new RegExp(`${base}/invitations/\\S+`).exec(mail.text)?.[0];
  assert.ok(link, `the mail carries the accept link: ${mail.text}`);
  assert.ok(link.endsWith(invite.invite_token), "with the whole token");
  assert.ok(!t.logs.join("").includes(invite.invite_token), "the token never reaches the log");

  // The inbox page shows the same mail, its link clickable.
  const page = await browser.newPage();
  const violations = watchPolicy(page);
  assert.equal((await page.goto(`${base}/sandbox/mail/inbox`))?.status(), 200);
  await page.fill("#email", invitee.email);
  await page.fill("#password", PASSWORD);
  await page.click('#signin button[type="submit"]');
  const article = page.locator(`article[data-id="${mail.id}"]`);
  await article.waitFor();
  assert.match((await article.textContent()) ?? "", /invited you to the app "Lighthouse" as developer/);

  // The invitation page: the app and the role; sign in with the invited address and accept.
  const [opened] = await Promise.all([page.waitForNavigation(), article.locator("a").first().click()]);
  assert.equal(opened?.status(), 200);
  assert.equal(page.url(), link);
  const csp = (await opened?.allHeaders())?.["content-security-policy"] ?? "";
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'nonce-/);
  assert.doesNotMatch(csp, /unsafe-inline/);
  assert.equal(await page.textContent("#app-name"), "Lighthouse");
  assert.equal(await page.textContent("#role"), "developer");
  assert.equal(await page.inputValue("#email"), invitee.email);
  await page.fill("#password", PASSWORD);
  await page.click('#signin button[type="submit"]');
  // The address is not verified yet: the page says where the link went, and waits.
  await page.locator("#verify-first").waitFor();
  await confirmAddress(await verificationLink(invitee.token, invitee.email));
  await page.click("#accept-now");
  await page.locator("#joined").waitFor();
  assert.equal(await page.textContent("#joined"), "You joined Lighthouse as developer.");
  assert.equal(await page.textContent("#app-id"), appId);
  assert.deepEqual(violations, []);

  // The next step is the console, already signed in on this tab, at the app's overview.
  await page.getByRole("link", { name: "Open the app in the console" }).click();
  await page.waitForURL(`${base}/dashboard/apps/${appId}`);
  await page.getByRole("navigation", { name: "App pages" }).waitFor();

  // The invitee now reaches the app through the API, as a developer.
  const app = await api.expect(200, "GET", `/apps/${appId}`, invitee.token);
  assert.equal(app.permissions.can_edit, true);
  assert.equal(app.permissions.can_edit_members, false);
  const apps = await api.expect(200, "GET", "/apps", invitee.token);
  assert.ok(apps.some((a: { id: string }) => a.id === appId));

  // The link worked once.
  const again = await page.goto(link);
  assert.equal(again?.status(), 404);
  assert.match((await page.textContent("h1")) ?? "", /not valid/);
  await page.close();
});

test("someone without an account signs up on the invitation page and joins", async () => {
  const email = `newcomer${randomBytes(4).toString("hex")}@example.com`;
  await api.expect(201, "POST", `/members/${appId}`, owner.token, { email, role: "owner" });
  // The newcomer has no account to read the inbox with; the app's owner reads the mail there.
  const mail = await inboxMail(owner.token, email);
  const link = new RegExp(`${base}/invitations/\\S+`).exec(mail.text)?.[0];
  assert.ok(link);

  const page = await browser.newPage();
  const violations = watchPolicy(page);
  assert.equal((await page.goto(link))?.status(), 200);
  assert.equal(await page.textContent("#role"), "owner");
  await page.click("#show-signup");
  await page.fill("#username", email.split("@")[0]);
  await page.fill("#first-name", "New");
  await page.fill("#last-name", "Comer");
  await page.fill("#new-password", "short");
  await page.click('#signup button[type="submit"]');
  // The browser's own check refuses a short password before anything is sent.
  assert.equal(await page.locator("#joined").isVisible(), false);
  await page.fill("#new-password", PASSWORD);
  await page.click('#signup button[type="submit"]');
  await page.locator("#verify-first").waitFor();
  const session = await api.expect(200, "POST", "/auth/login", undefined, { email, password: PASSWORD });
  await confirmAddress(await verificationLink(session.token, email));
  await page.click("#accept-now");
  await page.locator("#joined").waitFor();
  assert.equal(await page.textContent("#joined"), "You joined Lighthouse as owner.");
  assert.deepEqual(violations, []);
  await page.close();

  const app = await api.expect(200, "GET", `/apps/${appId}`, session.token);
  assert.equal(app.permissions.can_edit_members, true);
});
