import { randomBytes } from "node:crypto";
import { escapeHtml } from "../../platform/http/html.ts";
import { strictPolicy } from "../../platform/pages/html.ts";
import { PARAM_FIELDS_STYLE, paramFields, TRIGGER_FORM_URL } from "../triggers/form.ts";
import type { Param } from "../triggers/params.ts";

/** Content-Security-Policy of the page: nothing from elsewhere, only this page's own script and style. */
const pagePolicy = strictPolicy;

// The browser side: sign in by code, bid with a (sandbox) card, follow the auction over SSE.
// Everything is written with textContent, so nothing from the server is parsed as HTML.
const SCRIPT = `
const cfg = JSON.parse(document.getElementById("cfg").textContent);
const base = "/auctions/" + cfg.app_id + "/" + cfg.id;
const $ = (id) => document.getElementById(id);
let token = null, me = null;
async function post(path, body) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = "Bearer " + token;
  const r = await fetch(base + path, { method: "POST", headers, body: JSON.stringify(body) });
  const text = await r.text();
  const json = text ? JSON.parse(text) : null;
  if (!r.ok) throw Object.assign(new Error((json && json.detail) || ("HTTP " + r.status)), { errors: json && json.errors });
  return json;
}
// The trigger's parameter fields (TriggerForm, served with this page's nonce): checked here, sent
// with the bid, and the server's answer shown next to each field.
const params = window.TriggerForm;
const PARAMS_PATH = "/body/trigger_data_input/params_data_input";
function say(text) { $("message").textContent = text; }
$("send-code").addEventListener("click", async () => {
  try { await post("/shoppers/code", { email: $("email").value }); say("A code was sent to " + $("email").value); }
  catch (e) { say(e.message); }
});
$("sign-in").addEventListener("click", async () => {
  try {
    const s = await post("/shoppers/session", { email: $("email").value, code: $("code").value });
    token = s.token; me = s.shopper.id;
    $("who").textContent = "Signed in as " + s.shopper.phone_or_email;
    $("signin").hidden = true; $("bidding").hidden = false; say("");
  } catch (e) { say(e.message); }
});
$("bid").addEventListener("click", async () => {
  const input = params ? params.read() : { ok: true, values: {} };
  if (!input.ok) { say("Please check the highlighted fields."); return; }
  try {
    const [month, year] = $("exp").value.split("/").map((v) => parseInt(v, 10));
    const b = await post("/bids", {
      amount: $("amount").value,
      payment_method: { type: "card", number: $("card").value.replace(/ /g, ""), exp_month: month, exp_year: year < 100 ? 2000 + year : year, cvc: $("cvc").value },
      ...(params && params.has ? { trigger_data_input: { params_data_input: input.values } } : {}),
    });
    say("Bid of " + b.amount + " " + b.currency.toUpperCase() + " received: waiting for the card hold");
  } catch (e) {
    const placed = e.errors && params ? e.errors.length - params.showServerErrors(e.errors, PARAMS_PATH).length : 0;
    say(placed > 0 ? "Please check the highlighted fields." : e.message);
  }
});
function render(s) {
  $("current").textContent = s.current_amount === null ? "no bid yet (starts at " + s.starting_amount + ")" : String(s.current_amount);
  $("minimum").textContent = String(s.minimum_bid);
  $("state").textContent = s.expired ? "Ended" : "Open";
  if (s.expired) $("bid").disabled = true;
  const list = $("bids");
  list.replaceChildren(...s.bids.slice().reverse().map((b) => {
    const li = document.createElement("li");
    li.dataset.status = b.status;
    li.textContent = b.bidder + " " + b.amount + " " + s.currency.toUpperCase() + " (" + b.status + ")";
    return li;
  }));
  const mine = s.bids.filter((b) => b.shopper_id === me);
  const latest = mine[mine.length - 1];
  const status = !latest ? "" : latest.status === "outbid" ? "You have been outbid"
    : latest.status === "placed" ? "You are the highest bidder"
    : latest.status === "won" ? "You won this auction" : "Your bid " + latest.status;
  $("standing").textContent = status;
}
const events = new EventSource("/a/" + cfg.id + "/events");
events.addEventListener("state", (e) => render(JSON.parse(e.data)));
`;

const STYLE = `
body { font: 16px/1.4 system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; }
fieldset { margin: 1rem 0; } label { display: block; margin: .3rem 0; }
#standing { font-weight: bold; } #message { color: #555; }
`;

export function renderAuctionPage(state: {
  id: string;
  app_id: string;
  name: string;
  currency: string;
  ends_at: string;
  params?: Param[];
}) {
  const nonce = randomBytes(16).toString("base64");
  const config = JSON.stringify({ id: state.id, app_id: state.app_id }).replace(/</g, "\\u003c");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>${escapeHtml(state.name)}</title><style nonce="${nonce}">${STYLE}${PARAM_FIELDS_STYLE}</style></head>
<body>
<h1>${escapeHtml(state.name)}</h1>
<p>Current price: <span id="current">…</span> ${escapeHtml(state.currency.toUpperCase())}</p>
<p>Next bid at least: <span id="minimum">…</span> · Ends at <time datetime="${escapeHtml(state.ends_at)}">${escapeHtml(state.ends_at)}</time> · <span id="state">…</span></p>
<p id="standing"></p>
<fieldset id="signin"><legend>Sign in to bid</legend>
<label>Email <input id="email" type="email" autocomplete="email"></label>
<button id="send-code" type="button">Send me a code</button>
<label>Code <input id="code" inputmode="numeric" maxlength="6"></label>
<button id="sign-in" type="button">Sign in</button></fieldset>
<fieldset id="bidding" hidden><legend id="who"></legend>
<label>Amount <input id="amount" inputmode="decimal"></label>
<label>Card number <input id="card" value="4242 4242 4242 4242" autocomplete="off"></label>
<label>Expiry (MM/YY) <input id="exp" value="12/30"></label>
<label>CVC <input id="cvc" value="123"></label>
${paramFields(state.params ?? [], "Details for your purchase")}
<button id="bid" type="button">Bid</button></fieldset>
<p id="message" role="status"></p>
<h2>Bids</h2><ol id="bids" reversed></ol>
<script type="application/json" id="cfg">${config}</script>
<script nonce="${nonce}" src="${TRIGGER_FORM_URL}"></script>
<script nonce="${nonce}">${SCRIPT}</script>
</body></html>`;
  return { html, policy: pagePolicy(nonce) };
}
