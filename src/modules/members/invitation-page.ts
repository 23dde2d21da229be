import type { PageBrand } from "../../platform/pages/brand.ts";
import { escapeHtml, layout } from "../../platform/pages/html.ts";

export interface InvitationView {
  invite_token: string;
  email: string;
  role: string;
  app_name: string;
}

// Signs in (or signs up) through the public API, then accepts with `POST /members/accept`: the
// page does nothing a program could not. The session token lives only in this page's memory.
const SCRIPT = `
const view = JSON.parse(document.getElementById("data").textContent);
const $ = (id) => document.getElementById(id);
let token = null;
const say = (text, kind) => { $("message").textContent = text; $("message").className = kind || ""; };
async function api(method, path, body) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = "Bearer " + token;
  const answer = await fetch(path, { method, headers, body: JSON.stringify(body) });
  const json = await answer.json().catch(() => null);
  if (!answer.ok) throw Object.assign(new Error((json && json.detail) || "HTTP " + answer.status), { status: answer.status });
  return json;
}
// Only a verified address accepts: a new account (or an unverified one) is shown where its
// verification link went, and accepts from here once it has been opened.
async function tryAccept() {
  try { await accept(); } catch (error) {
    if (error.status !== 403 || !/verify/i.test(error.message)) throw error;
    $("forms").hidden = true; $("verify-first").hidden = false; say("");
  }
}
async function accept() {
  const member = await api("POST", "/members/accept", { invite_token: view.invite_token });
  $("verify-first").hidden = true;
  $("forms").hidden = true; $("done").hidden = false; say("");
  $("joined").textContent = "You joined " + member.app.name + " as " + member.role + ".";
  $("app-id").textContent = member.app.id;
  // The console keeps its session in this tab's sessionStorage (dashboard/src/api.tsx): handing it
  // this session opens the app there signed in, instead of asking for the password again.
  try { sessionStorage.setItem("payments-dashboard.session", JSON.stringify({ token, email: view.email })); } catch {}
  $("open-console").href = "/dashboard/apps/" + encodeURIComponent(member.app.id);
  $("open-console").focus();
}
function busy(form, on) { for (const b of form.querySelectorAll("button")) b.disabled = on; }
$("signin").addEventListener("submit", async (event) => {
  event.preventDefault(); busy($("signin"), true); say("Signing in…");
  try {
    if (!token) token = (await api("POST", "/auth/login", { email: $("email").value, password: $("password").value })).token;
    await tryAccept();
  } catch (error) { say(error.message, "error"); }
  busy($("signin"), false);
});
$("signup").addEventListener("submit", async (event) => {
  event.preventDefault(); busy($("signup"), true); say("Creating your account…");
  try {
    if (!token) token = (await api("POST", "/auth/signup", { email: view.email, password: $("new-password").value,
      username: $("username").value, first_name: $("first-name").value, last_name: $("last-name").value })).token;
    await tryAccept();
  } catch (error) { say(error.message, "error"); }
  busy($("signup"), false);
});
$("accept-now").addEventListener("click", async () => {
  $("accept-now").disabled = true; say("Accepting…");
  try { await accept(); } catch (error) { say(error.message, "error"); }
  $("accept-now").disabled = false;
});
$("show-signup").addEventListener("click", () => { $("signin").hidden = true; $("signup").hidden = false; });
$("show-signin").addEventListener("click", () => { $("signup").hidden = true; $("signin").hidden = false; });
`;

/** The page an invitation mail links to: the app (with its face, `brand`) and the role, and a way in. */
export function invitationPage(view: InvitationView, nonce: string, brand: PageBrand | null = null): string {
  const email = escapeHtml(view.email);
  return layout(
    nonce,
    `Join ${view.app_name}`,
    `<h1>Join <span id="app-name">${escapeHtml(view.app_name)}</span></h1>
<p>You are invited to this app as <strong id="role">${escapeHtml(view.role)}</strong>. The invitation is
for <strong id="invited-email">${email}</strong>: accept it with an account that has this address.</p>
<div id="forms">
<form id="signin">
  <label for="email">Email</label><input id="email" type="email" value="${email}" autocomplete="email" required>
  <label for="password">Password</label><input id="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in and accept</button>
  <p>No account with this address yet? <button type="button" class="link" id="show-signup">Create one</button></p>
</form>
<form id="signup" hidden>
  <p>Your account's address is <strong>${email}</strong>. The password needs at least 12 characters.</p>
  <label for="username">Username</label><input id="username" autocomplete="username" required>
  <label for="first-name">First name</label><input id="first-name" autocomplete="given-name" required>
  <label for="last-name">Last name</label><input id="last-name" autocomplete="family-name" required>
  <label for="new-password">Password</label><input id="new-password" type="password" minlength="12" autocomplete="new-password" required>
  <button type="submit">Create the account and accept</button>
  <p>Have an account? <button type="button" class="link" id="show-signin">Sign in</button></p>
</form>
</div>
<div id="verify-first" hidden>
  <p>One more step: we mailed a link to <strong>${email}</strong> to confirm the address is yours.
  Open it, then come back to this page and accept.</p>
  <button type="button" id="accept-now">I confirmed my address: accept</button>
</div>
<div id="done" hidden>
  <p class="ok" id="joined"></p>
  <p><a class="button" id="open-console" href="/dashboard">Open the app in the console</a></p>
  <p>The app's id is <code id="app-id"></code>. Your account reaches it through the API too
  (<a href="/docs">API documentation</a>).</p>
</div>
<p id="message" role="status" aria-live="polite"></p>`,
    { data: view, code: SCRIPT },
    brand,
  );
}

/** For a link that no longer works: used, withdrawn, or never issued. */
export function invitationGonePage(nonce: string): string {
  return layout(
    nonce,
    "Invitation not valid",
    `<h1>This invitation is not valid</h1>
<p>It was already accepted, or withdrawn by the app's owner. Ask them for a new invitation.</p>`,
  );
}
