import { FORMAT_SCRIPT } from "../../platform/pages/browser-format.ts";
import { layout } from "../../platform/pages/html.ts";

// Signs in with email and password (the session token stays in this page's memory), then lists
// the inbox from `GET /sandbox/mail`. Mail text is written with textContent; only http(s) URLs in
// it become links, built as elements, so nothing in a mail is parsed as HTML. Times read in the
// viewer's own time zone.
const SCRIPT = `${FORMAT_SCRIPT}
const $ = (id) => document.getElementById(id);
let token = null;
const say = (text, kind) => { $("message").textContent = text; $("message").className = kind || ""; };
async function api(method, path, body) {
  const headers = {};
  if (body) headers["content-type"] = "application/json";
  if (token) headers.authorization = "Bearer " + token;
  const answer = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const json = await answer.json().catch(() => null);
  if (!answer.ok) throw new Error((json && json.detail) || "HTTP " + answer.status);
  return json;
}
function linkified(text) {
  const pre = document.createElement("pre");
  for (const part of text.split(/(https?:\\/\\/[^\\s"<>]+)/)) {
    if (/^https?:\\/\\//.test(part)) {
      const a = document.createElement("a");
      a.href = part; a.textContent = part; a.rel = "noreferrer";
      pre.append(a);
    } else pre.append(part);
  }
  return pre;
}
async function load() {
  const mails = await api("GET", "/sandbox/mail?limit=100");
  $("empty").hidden = mails.length > 0;
  $("mails").replaceChildren(...mails.map((mail) => {
    const article = document.createElement("article");
    article.dataset.id = mail.id;
    const title = document.createElement("h2");
    title.textContent = mail.subject;
    const meta = document.createElement("small");
    const sent = document.createElement("time");
    sent.dateTime = mail.created_at;
    sent.textContent = localTime(mail.created_at);
    meta.append("To " + mail.to + " · ", sent);
    article.append(title, meta, linkified(mail.text));
    return article;
  }));
}
$("signin").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const session = await api("POST", "/auth/login", { email: $("email").value, password: $("password").value });
    token = session.token;
    $("signin").hidden = true; $("inbox").hidden = false; say("");
    await load();
  } catch (error) { say(error.message, "error"); }
});
$("refresh").addEventListener("click", () => load().catch((error) => say(error.message, "error")));
`;

/** The sandbox inbox page: every mail the sandbox sent that the signed-in user may read, in full. */
export function inboxPage(nonce: string): string {
  return layout(
    nonce,
    "Sandbox inbox",
    `<h1>Sandbox inbox</h1>
<p>In sandbox mode no mail leaves this server: it lands here. Sign in to read the mails sent to
your address and about the apps you own.</p>
<form id="signin">
  <label for="email">Email</label><input id="email" type="email" autocomplete="email" required>
  <label for="password">Password</label><input id="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>
<section id="inbox" hidden>
  <button id="refresh" type="button">Refresh</button>
  <p id="empty" hidden>No mail yet.</p>
  <div id="mails"></div>
</section>
<p id="message" role="status" aria-live="polite"></p>`,
    { code: SCRIPT },
  );
}
