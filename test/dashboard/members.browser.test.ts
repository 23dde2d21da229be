import assert from "node:assert/strict";
import { test } from "node:test";
import { eventually } from "../helpers/contract.ts";
import {
  expectAccessible,
  expectFitsWidth,
  expectNoConsoleErrors,
  newPage,
  signIn,
  useDashboard,
} from "../helpers/dashboard.ts";
import { call, expectStatus, signup, verifyEmail } from "../helpers/http.ts";
import { accessibleDialog } from "./dialogs.ts";
import { expectCard } from "./phone.ts";

// Members in the console: the owner invites by email, the invitation waits under "Pending
// invitations" until accepted, then the member's role changes and the member is removed, each
// behind the page's own controls; what the page shows is checked against the API.
let ownerToken: string;

const ui = useDashboard(
  {},
  {
    async setUp() {
      const login = await call(ui.dashboard.t, "POST", "/auth/login", {
        body: { email: ui.owner.email, password: ui.owner.password },
      });
      ownerToken = expectStatus(login, 200).token;
    },
  },
);

async function membersOnApi() {
  const answer = await call(ui.dashboard.t, "GET", `/members/${ui.owner.appId}`, { token: ownerToken });
  return expectStatus(answer, 200) as { id: string; email: string; role: string; user_id: string | null }[];
}

const rowOf = (email: string) => ui.owner.page.getByRole("row").filter({ hasText: email });

async function invite(email: string) {
  const { page } = ui.owner;
  await page.getByRole("button", { name: "Invite member" }).click();
  const dialog = await accessibleDialog(page, "Invite a member");
  await dialog.getByLabel("Email address").fill(email);
  await dialog.getByRole("button", { name: "Send invitation" }).click();
  await dialog.waitFor({ state: "hidden" });
}

test("the owner invites a developer, who accepts, changes role and is removed", async () => {
  const { page, appId, errors } = ui.owner;
  await page.getByRole("link", { name: ui.owner.appName }).click();
  await page.getByRole("navigation", { name: "App pages" }).getByRole("link", { name: "Members" }).click();
  await page.getByRole("heading", { level: 1, name: "Members" }).waitFor();
  await page.getByRole("main").getByText(ui.owner.email).waitFor();
  assert.equal(await page.getByText("No pending invitations.").isVisible(), true);

  const developer = await signup(ui.dashboard.t);
  await invite(developer.email);
  await page.getByRole("heading", { name: "Pending invitations" }).waitFor();
  await rowOf(developer.email).waitFor();
  await expectAccessible(page);

  // The invitee accepts with the token from the invitation mail, as the invitation page would.
  const mail = await eventually(() =>
    ui.dashboard.t.mailer.to(developer.email).find((m) => m.subject.includes("invited you")),
  );
  const token = /inv_[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  await verifyEmail(ui.dashboard.t, developer.email);
  assert.ok(token, "the invitation mail carries its token");
  expectStatus(
    await call(ui.dashboard.t, "POST", "/members/accept", {
      token: developer.token,
      body: { invite_token: token },
    }),
    200,
  );
  await page.reload();
  await page.getByText("No pending invitations.").waitFor();
  const role = page.getByRole("textbox", { name: `Role of ${developer.email}` });
  assert.equal(await role.inputValue(), "Developer");

  await role.click();
  await page.getByRole("option", { name: "Owner" }).click();
  await page.getByText(`${developer.email}: owner`).waitFor();
  const promoted = (await membersOnApi()).find((member) => member.email === developer.email);
  assert.equal(promoted?.role, "owner");

  await page
    .getByRole("row", { name: new RegExp(developer.email) })
    .getByRole("button", { name: "Remove" })
    .click();
  const confirm = await accessibleDialog(page, "Remove this member?");
  await confirm.getByRole("button", { name: "Remove" }).click();
  await rowOf(developer.email).waitFor({ state: "detached" });
  assert.equal(
    (await membersOnApi()).some((member) => member.email === developer.email),
    false,
  );
  assert.ok(appId);
  expectNoConsoleErrors(errors);
});

test("a pending invitation is withdrawn; the page works at 390 px", async () => {
  const { page, errors } = ui.owner;
  const email = `later-${Date.now()}@example.com`;
  await invite(email);
  await page
    .getByRole("row", { name: new RegExp(email) })
    .getByRole("button", { name: "Withdraw" })
    .click();
  await (await accessibleDialog(page, "Withdraw this invitation?"))
    .getByRole("button", { name: "Withdraw" })
    .click();
  await page.getByText("No pending invitations.").waitFor();
  assert.equal(
    (await membersOnApi()).some((member) => member.email === email),
    false,
  );
  expectNoConsoleErrors(errors);

  const invited = `phone-${Date.now()}@example.com`;
  await invite(invited);
  const narrow = await newPage(ui.dashboard, { width: 390 });
  await signIn(narrow.page, ui.owner.email, ui.owner.password);
  await narrow.page.goto(`/dashboard/apps/${ui.owner.appId}/members`);
  await narrow.page.getByRole("main").getByText(ui.owner.email).waitFor();
  // Members and invitations are cards: who, the role, since when (an invitation: until when).
  const owner = await expectCard(narrow.page, `Member ${ui.owner.email}`, [ui.owner.email, "Since"]);
  await owner.getByRole("textbox", { name: `Role of ${ui.owner.email}` }).waitFor();
  const invitation = await expectCard(narrow.page, `Invitation ${invited}`, [
    "Invitation sent, not yet accepted",
    /^Expires/,
  ]);
  await invitation.getByRole("button", { name: "Withdraw" }).waitFor();
  assert.equal(await narrow.page.locator("main table").count(), 0, "cards, not tables");
  await expectAccessible(narrow.page);
  await expectFitsWidth(narrow.page, 390);
  expectNoConsoleErrors(narrow.errors);
});
