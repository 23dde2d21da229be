import { FORMAT_SCRIPT } from "../../platform/pages/browser-format.ts";

/**
 * The auction page's script (inline, with the page's nonce): sign in by code, bid with a (sandbox)
 * card, follow the auction over server-sent events. Everything is written with textContent, so
 * nothing from the server is parsed as HTML.
 *
 * The bidder's own standing is worked out from the public state and the bid this page just sent:
 * a bid is `pending` from the moment it is accepted (202) until the state lists it; then it reads
 * as the state says (placed, outbid, won, refused, failed). So "waiting for the card hold" is never
 * shown next to a bid whose hold has landed.
 */
export const AUCTION_SCRIPT = `${FORMAT_SCRIPT}
const cfg = JSON.parse(document.getElementById("cfg").textContent);
const base = "/auctions/" + cfg.app_id + "/" + cfg.id;
const $ = (id) => document.getElementById(id);
const money = (amount) => formatMoney(amount, cfg.currency);
let token = null, me = null, sent = null, last = null;
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
function say(text, kind) { $("message").textContent = text; $("message").className = text ? kind || "info" : ""; }
function pill(el, text, tone) { el.textContent = text; el.className = "pill pill-" + tone; el.hidden = !text; }
$("send-code").addEventListener("click", async () => {
  try { await post("/shoppers/code", { email: $("email").value }); say("A code was sent to " + $("email").value + "."); }
  catch (e) { say(e.message, "error"); }
});
$("sign-in").addEventListener("click", async () => {
  try {
    const s = await post("/shoppers/session", { email: $("email").value, code: $("code").value });
    token = s.token; me = s.shopper.id;
    $("who").textContent = "Signed in as " + s.shopper.phone_or_email;
    $("signin").hidden = true; $("bidding").hidden = false; say("");
    if (last) render(last);
  } catch (e) { say(e.message, "error"); }
});
$("bid").addEventListener("click", async () => {
  const input = params ? params.read() : { ok: true, values: {} };
  if (!input.ok) { say("Please check the highlighted fields.", "error"); return; }
  $("bid").disabled = true;
  try {
    const [month, year] = $("exp").value.split("/").map((v) => parseInt(v, 10));
    const b = await post("/bids", {
      amount: $("amount").value,
      payment_method: { type: "card", number: $("card").value.replace(/ /g, ""), exp_month: month, exp_year: year < 100 ? 2000 + year : year, cvc: $("cvc").value },
      ...(params && params.has ? { trigger_data_input: { params_data_input: input.values } } : {}),
    });
    sent = { id: b.id, amount: b.amount };
    say("");
    if (last) render(last);
  } catch (e) {
    const placed = e.errors && params ? e.errors.length - params.showServerErrors(e.errors, PARAMS_PATH).length : 0;
    say(placed > 0 ? "Please check the highlighted fields." : e.message, "error");
  } finally {
    $("bid").disabled = Boolean(last && last.expired);
  }
});
// What the bidder reads about their own bids: [words, pill text, pill tone].
function standingOf(s) {
  const mine = s.bids.filter((b) => b.shopper_id === me);
  if (sent && mine.some((b) => b.id === sent.id)) sent = null;
  const latest = mine[mine.length - 1];
  const leading = mine.find((b) => b.status === "placed");
  if (mine.some((b) => b.status === "won")) return ["You won this auction", "Won", "success"];
  if (sent) return ["Your bid of " + money(sent.amount) + " is waiting for the card hold", "Pending", "warning"];
  if (!latest) return ["", "", "neutral"];
  if (latest.status === "refused") {
    return ["Your bid of " + money(latest.amount) + " was not accepted: the card was declined or a higher bid came first"
      + (leading ? ". Your bid of " + money(leading.amount) + " still leads" : ""), "Not accepted", "danger"];
  }
  if (latest.status === "failed") return ["The payment for your winning bid failed", "Failed", "danger"];
  if (latest.status === "expired") return ["The card hold for your bid expired", "Expired", "neutral"];
  if (leading) return ["You are the highest bidder", "Leading", "success"];
  if (mine.some((b) => b.status === "outbid")) return ["You have been outbid", "Outbid", "warning"];
  return ["", "", "neutral"];
}
function bidItem(s, b) {
  const li = document.createElement("li");
  li.dataset.status = b.status;
  const who = document.createElement("span");
  who.className = "bidder";
  who.textContent = b.shopper_id === me ? "You" : b.bidder;
  const amount = document.createElement("strong");
  amount.textContent = money(b.amount);
  const when = document.createElement("time");
  when.dateTime = b.created_at;
  when.textContent = localTime(b.created_at);
  const status = document.createElement("span");
  const tone = { placed: "success", won: "success", outbid: "neutral", refused: "danger", failed: "danger" }[b.status] || "neutral";
  pill(status, b.status === "placed" ? "leading" : b.status === "refused" ? "not accepted" : b.status, tone);
  li.append(who, amount, when, status);
  return li;
}
function render(s) {
  last = s;
  $("current").textContent = s.current_amount === null ? "No bids yet · starts at " + money(s.starting_amount) : money(s.current_amount);
  $("current").classList.toggle("none", s.current_amount === null);
  $("minimum").textContent = money(s.minimum_bid);
  $("amount").placeholder = String(s.minimum_bid);
  tick();
  if (s.expired) $("bid").disabled = true;
  // Once it has ended there is nothing to sign in for, bid or raise.
  $("closed").hidden = !s.expired;
  $("next").hidden = s.expired;
  if (s.expired) { $("signin").hidden = true; $("bidding").hidden = true; }
  // Others' refused bids are no one else's business: the list shows only this bidder's.
  const shown = s.bids.filter((b) => b.status !== "refused" || b.shopper_id === me);
  $("no-bids").hidden = shown.length > 0;
  $("bids").replaceChildren(...shown.slice().reverse().map((b) => bidItem(s, b)));
  const [words, label, tone] = standingOf(s);
  $("standing").textContent = words;
  pill($("standing-pill"), label, tone);
  $("you").hidden = !words;
}
// The end time in the viewer's own time, and the time left, every second.
function tick() {
  const left = Date.parse(cfg.ends_at) - Date.now();
  if (last && last.expired) { pill($("state"), "Ended", "neutral"); $("countdown").textContent = "Ended"; return; }
  if (left > 0) { pill($("state"), "Open", "success"); $("countdown").textContent = "Ends in " + timeLeft(left); return; }
  pill($("state"), "Closing", "warning");
  $("countdown").textContent = "Closing…";
}
localizeTimes(document);
tick();
setInterval(tick, 1000);
const events = new EventSource("/a/" + cfg.id + "/events");
events.addEventListener("state", (e) => render(JSON.parse(e.data)));
`;
