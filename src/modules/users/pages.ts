import { layout } from "../../platform/pages/html.ts";

// Both pages act through the public API (`POST /auth/password-reset/confirm`, `POST
// /auth/verify-email`): they do nothing a program could not. The token is read from the data
// block, never from markup; the page is served no-store and no-referrer (sendPage).
const API = `
const view = JSON.parse(document.getElementById("data").textContent);
const $ = (id) => document.getElementById(id);
const say = (text, kind) => { $("message").textContent = text; $("message").className = kind || ""; };
async function api(path, body) {
  const answer = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (answer.ok) return;
  const json = await answer.json().catch(() => null);
  throw new Error((json && json.detail) || "HTTP " + answer.status);
}
`;

const RESET_SCRIPT = `${API}
$("reset").addEventListener("submit", async (event) => {
  event.preventDefault();
  if ($("password").value !== $("again").value) return say("The two passwords differ", "error");
  $("save").disabled = true; say("Saving…");
  try {
    await api("/auth/password-reset/confirm", { token: view.token, password: $("password").value });
    $("reset").hidden = true;
    say("Your password is changed, and every session of the account has ended. Sign in with the new password.", "ok");
  } catch (error) { say(error.message, "error"); $("save").disabled = false; }
});
`;

/** The page a reset mail links to (`GET /password-reset/{token}`): a new password, twice. */
export function passwordResetPage(token: string, nonce: string): string {
  return layout(
    nonce,
    "Choose a new password",
    `<h1>Choose a new password</h1>
<form id="reset">
  <label for="password">New password (at least 12 characters)</label>
  <input id="password" type="password" minlength="12" maxlength="256" autocomplete="new-password" required>
  <label for="again">The same again</label>
  <input id="again" type="password" minlength="12" maxlength="256" autocomplete="new-password" required>
  <button type="submit" id="save">Set the new password</button>
</form>
<p id="message" role="status" aria-live="polite"></p>`,
    { data: { token }, code: RESET_SCRIPT },
  );
}

// Verified by a button, not on load: mail scanners open links, and a GET must not change state.
const VERIFY_SCRIPT = `${API}
$("verify").addEventListener("click", async () => {
  $("verify").disabled = true; say("Verifying…");
  try {
    await api("/auth/verify-email", { token: view.token });
    $("verify").hidden = true;
    say("Your address is verified. You can close this page.", "ok");
  } catch (error) { say(error.message, "error"); $("verify").disabled = false; }
});
`;

/** The page a verification mail links to (`GET /verify-email/{token}`). */
export function verifyEmailPage(token: string, nonce: string): string {
  return layout(
    nonce,
    "Confirm your email address",
    `<h1>Confirm your email address</h1>
<p>Confirm that this mail reached you: your account can then accept invitations and own apps in live mode.</p>
<button type="button" id="verify">Confirm my address</button>
<p id="message" role="status" aria-live="polite"></p>`,
    { data: { token }, code: VERIFY_SCRIPT },
  );
}

/** For a link that no longer works: used, expired, or never sent. */
export function linkGonePage(nonce: string, what: string): string {
  return layout(
    nonce,
    "Link not valid",
    `<h1>This link is not valid</h1>
<p>It was used already, it expired, or it was never sent. ${what}</p>`,
  );
}
