/**
 * The hosted checkout's script (`checkout-page.ts` loads it with its nonce). What it does, in order:
 *
 * 1. Shows the total before paying: the summary for the chosen method, asked again of
 *    `/checkout/{price_id}/quote` when a dynamic price's amount changes.
 * 2. On Pay, checks every field first (email, amount, the trigger's parameters through
 *    `TriggerForm`, the card or bank fields; with Stripe, Stripe.js makes the payment method), and
 *    shows each problem in plain words next to its field: nothing is sent while one is left.
 * 3. Opens the payment once and keeps it (in sessionStorage, with the order it was opened for): a
 *    try after a declined card or a refused field confirms the same payment again. If the shopper
 *    changed the order meanwhile, the old payment is withdrawn (`/cancel`) and a new one opened.
 * 4. Follows the payment to its end and shows the receipt with what was charged.
 *
 * Server answers are problem documents; their `errors[].path` put each message next to its
 * field. No validator text is ever shown: an error with no field here reads as one plain sentence.
 * `String.raw` keeps backslashes as written; the script has no `${`.
 */
export const CHECKOUT_SCRIPT = String.raw`(() => {
"use strict";
const view = JSON.parse(document.getElementById("view").textContent);
const $ = (id) => document.getElementById(id);
const params = window.TriggerForm;
const base = "/checkout/" + encodeURIComponent(view.price.id);
const storeKey = "checkout:" + view.price.id;
const OWN_FIELDS = ["email", "custom-amount", "number", "exp", "cvc", "holder", "routing", "account", "card-element"];
const sentence = (text) => {
  const t = String(text).trim();
  return t ? t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? "" : ".") : t;
};
const say = (text, kind) => { $("message").textContent = text; $("message").className = kind || ""; };

function showError(id, message) {
  const slot = $(id + "-error");
  if (!slot) return false;
  slot.textContent = sentence(message);
  slot.hidden = false;
  if ($(id)) $(id).setAttribute("aria-invalid", "true");
  return true;
}
function clearError(id) {
  const slot = $(id + "-error");
  if (slot) { slot.textContent = ""; slot.hidden = true; }
  if ($(id)) $(id).removeAttribute("aria-invalid");
}
function clearErrors() {
  OWN_FIELDS.forEach(clearError);
  if (params) params.clear();
}
for (const id of OWN_FIELDS) if ($(id)) $(id).addEventListener("input", () => clearError(id));

// --- The total, before paying ---
function showSummary(prefix, s) {
  $(prefix + "-price").textContent = s.price;
  $(prefix + "-converted").textContent = s.converted || "";
  $(prefix + "-converted-row").hidden = !s.converted;
  $(prefix + "-fees").textContent = s.fees;
  $(prefix + "-total").textContent = s.total;
  if (prefix === "quote") $("submit").textContent = "Pay " + s.total;
}
const method = () => $("method").value;
let quoteTimer = null;
function refreshQuote() {
  const amount = $("custom-amount").value.trim();
  if (view.price.type !== "dynamic" || amount === "" || amountProblem()) {
    if (view.quotes[method()]) showSummary("quote", view.quotes[method()]);
    return;
  }
  clearTimeout(quoteTimer);
  quoteTimer = setTimeout(async () => {
    try {
      const query = "?payment_provider=" + encodeURIComponent(method()) + "&amount=" + encodeURIComponent(amount);
      showSummary("quote", await api(base + "/quote" + query, { method: "GET" }));
    } catch (error) {
      placeErrors(error, "");
    }
  }, 250);
}
$("method").addEventListener("change", () => {
  const bank = method() === "us_bank_account";
  if ($("bank-fields")) { $("bank-fields").hidden = !bank; $("card-fields").hidden = bank; }
  refreshQuote();
});
$("custom-amount").addEventListener("input", refreshQuote);

// --- Checks made before anything is sent ---
function emailProblem() {
  const email = $("email").value.trim();
  if (!email) return "enter your email address: the receipt goes there";
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return "enter an email address such as you@example.com";
  return null;
}
function amountProblem() {
  const text = $("custom-amount").value.trim();
  if (view.price.type !== "dynamic" || text === "") return null;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return "enter an amount such as " + view.price.amount_decimal;
  const fraction = match[2] || "";
  if (fraction.length > view.price.exponent) return "use at most " + view.price.exponent + " decimals";
  const minor = BigInt(match[1] + fraction.padEnd(view.price.exponent, "0"));
  if (minor < BigInt(view.price.amount_minor)) return "enter at least " + view.price.amount_text;
  return null;
}
function luhn(digits) {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}
function cardProblems() {
  const problems = [];
  const number = $("number").value.replace(/[\s-]/g, "");
  if (!number) problems.push(["number", "enter the card number"]);
  else if (!/^\d{12,19}$/.test(number)) problems.push(["number", "a card number has 12 to 19 digits"]);
  else if (!luhn(number)) problems.push(["number", "this card number is not valid: check the digits"]);
  const exp = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec($("exp").value);
  if (!$("exp").value.trim()) problems.push(["exp", "enter the expiry date as MM/YY"]);
  else if (!exp || Number(exp[1]) < 1 || Number(exp[1]) > 12) problems.push(["exp", "write the expiry date as MM/YY, such as 12/30"]);
  else {
    const year = exp[2].length === 2 ? 2000 + Number(exp[2]) : Number(exp[2]);
    const now = new Date();
    if (year < now.getFullYear() || (year === now.getFullYear() && Number(exp[1]) < now.getMonth() + 1)) problems.push(["exp", "this card has expired"]);
  }
  const cvc = $("cvc").value.trim();
  if (!cvc) problems.push(["cvc", "enter the 3 or 4 digits on the back of the card"]);
  else if (!/^\d{3,4}$/.test(cvc)) problems.push(["cvc", "the security code is 3 or 4 digits"]);
  return problems;
}
function bankProblems() {
  const problems = [];
  if (!$("holder").value.trim()) problems.push(["holder", "enter the account holder's name"]);
  if (!/^\d{9}$/.test($("routing").value.trim())) problems.push(["routing", "a routing number has 9 digits"]);
  if (!/^\d{4,17}$/.test($("account").value.trim())) problems.push(["account", "an account number has 4 to 17 digits"]);
  return problems;
}

// --- Stripe's card Element, when cards go through Stripe ---
let stripe = null, cardElement = null;
if (view.stripe) {
  if (typeof Stripe !== "function") {
    say("Card payments are unavailable right now (Stripe.js could not be loaded). Please try again later.", "error");
    $("submit").disabled = true;
  } else {
    stripe = Stripe(view.stripe.publishableKey);
    cardElement = stripe.elements().create("card");
    cardElement.mount("#card-element");
  }
}
class Refused extends Error {}
async function paymentMethod(kind) {
  if (cardElement) {
    const result = await stripe.createPaymentMethod({ type: "card", card: cardElement, billing_details: { email: $("email").value.trim() } });
    if (result.error) {
      // Stripe's own messages are written for shoppers ("Your card number is invalid.").
      const words = sentence(result.error.message || "the card was not accepted");
      showError("card-element", words);
      throw new Refused(words);
    }
    return { type: "token", id: result.paymentMethod.id };
  }
  if (kind !== "card") {
    return { type: "us_bank_account", routing_number: $("routing").value.trim(), account_number: $("account").value.trim(), account_holder_name: $("holder").value.trim() };
  }
  const [, month, year] = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec($("exp").value);
  return { type: "card", number: $("number").value.replace(/[\s-]/g, ""), exp_month: Number(month), exp_year: year.length === 2 ? 2000 + Number(year) : Number(year), cvc: $("cvc").value.trim() };
}

// --- Talking to the server ---
class Problem extends Error {
  constructor(status, body) { super(body.detail || "HTTP " + status); this.status = status; this.body = body; }
}
async function api(path, init, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers["x-payment-token"] = token;
  const answer = await fetch(path, { ...init, headers });
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Problem(answer.status, body);
  return body;
}
// The server's field paths, mapped to the page's fields.
const FIELD_OF = {
  "/body/email": "email", "/body/amount": "custom-amount", "/query/amount": "custom-amount",
  "/body/payment_method/number": "number", "/body/payment_method/exp_month": "exp", "/body/payment_method/exp_year": "exp",
  "/body/payment_method/cvc": "cvc", "/body/payment_method/routing_number": "routing",
  "/body/payment_method/account_number": "account", "/body/payment_method/account_holder_name": "holder",
};
const PLAIN = [[/^is required$/, "please fill this in"], [/^must match format "email"$/, "enter an email address such as you@example.com"]];
const plain = (message) => {
  for (const [pattern, words] of PLAIN) if (pattern.test(message)) return words;
  return params ? params.plainWords(message) : message;
};
// Puts a failed call's errors next to their fields; answers the sentence for the banner.
function placeErrors(error, fallback) {
  if (error instanceof Refused) return error.message;
  if (!(error instanceof Problem)) return "We could not reach the server. Check your connection and try again.";
  const body = error.body || {};
  if (error.status >= 500) return "Something went wrong on our side. Please try again in a moment.";
  if (body.code === "rate_limited") return "Too many tries. Please wait a minute, then try again.";
  if (body.code !== "validation_failed") return sentence(body.detail || fallback);
  let rest = params ? params.showServerErrors(body.errors, "/body/trigger_data_input/params_data_input") : body.errors || [];
  rest = rest.filter((e) => !(FIELD_OF[e.path] && showError(FIELD_OF[e.path], plain(String(e.message || "")))));
  // The card fields' own alternatives (card, bank, token) all fail together: one sentence says it.
  if (rest.some((e) => String(e.path).startsWith("/body/payment_method"))) {
    showError(cardElement ? "card-element" : method() === "card" ? "number" : "account", "please check these details");
    rest = rest.filter((e) => !String(e.path).startsWith("/body/payment_method"));
  }
  if (rest.length > 0) return fallback || "Some details could not be accepted. Please check them and try again.";
  return "Please check the highlighted fields.";
}

// --- The payment this tab opened, kept across tries ---
let kept = JSON.parse(sessionStorage.getItem(storeKey) || "null");
function keep(payment) {
  kept = payment;
  if (payment) sessionStorage.setItem(storeKey, JSON.stringify(payment));
  else sessionStorage.removeItem(storeKey);
}
async function paymentFor(order) {
  if (kept) {
    const current = await api(base + "/payments/" + kept.id, { method: "GET" }, kept.payment_token).catch(() => null);
    if (current && current.status === "pending" && !current.requires_payment_method) return { ...kept, busy: true };
    if (current && current.status === "pending") {
      if (kept.order === order) return kept;
      await api(base + "/payments/" + kept.id + "/cancel", { method: "POST", body: "{}" }, kept.payment_token).catch(() => null);
    }
    keep(null);
  }
  const created = await api(base + "/payments", { method: "POST", body: order });
  const mine = { id: created.id, payment_token: created.payment_token, order };
  keep(mine);
  return mine;
}

// Each status as the shopper reads it: the sentence, its tone (the status line's class), the badge.
const STATES = {
  pending: ["Waiting for the payment…", "pending", "Pending", "warning"],
  hold: ["Payment authorised; running the transaction…", "pending", "Authorised", "warning"],
  paid: ["Paid. Thank you!", "ok", "Paid", "success"],
  "failed-transfers": ["Paid. Thank you!", "ok", "Paid", "success"],
  cancelled: ["The payment was cancelled.", "info", "Cancelled", "neutral"],
  refunded: ["The payment was refunded: the whole amount goes back to you.", "info", "Refunded", "neutral"],
  "failed-captured": ["The transaction failed after the payment was taken; it will be refunded in full.", "error", "Failed", "danger"],
};
function badge(text, tone) { $("payment-status").textContent = text; $("payment-status").className = "pill pill-" + tone; }
function formBack() {
  $("pay").hidden = false; $("progress").hidden = true; $("submit").disabled = false;
}
function showReceipt(p) {
  showSummary("receipt", p.summary);
  $("receipt-email").textContent = $("email").value.trim() || "you";
  $("receipt-id").textContent = p.id;
  $("summary").hidden = true;
  $("receipt").hidden = false;
}
async function follow(paymentId, token, returned) {
  $("pay").hidden = true; $("progress").hidden = false; badge("Pending", "warning");
  for (;;) {
    const p = await api(base + "/payments/" + paymentId, { method: "GET" }, token);
    // Back from the step, the payment takes a moment to learn of it: wait rather than go again.
    if (p.next_action && p.status === "pending" && !returned) { location.assign(p.next_action.url); return; }
    $("bar").value = p.status === "paid" ? 100 : p.confirmation_status.progress || (p.status === "hold" ? 50 : 10);
    if (p.transaction_url) { $("tx").href = p.transaction_url; $("link").hidden = false; }
    if (p.status === "pending" && p.requires_payment_method && p.error) {
      // Declined: the same payment waits for another card or account.
      const words = sentence(p.error.message);
      say(words + " Try another card or payment method.", "error");
      showError(cardElement ? "card-element" : method() === "card" ? "number" : "account", words);
      return formBack();
    }
    if (p.status === "failed") {
      say(sentence(p.error ? p.error.message : "The payment failed") + " Try another payment method.", "error");
      keep(null);
      return formBack();
    }
    if (p.status === "cancelled" && p.error) {
      // The contract call failed after the hold: the hold was released, nothing was taken.
      say("The transaction could not be completed (" + sentence(p.error.message).replace(/\.$/, "") + "), so your card was not charged: the hold on it was released. You can try again.", "error");
      badge("Not charged", "neutral");
      $("submit").textContent = "Try again";
      keep(null);
      return formBack();
    }
    const [words, tone, label, pill] = STATES[p.status] || [p.status, "pending", p.status, "neutral"];
    say(words, tone);
    badge(label, pill);
    if (p.status === "paid" || p.status === "failed-transfers") { keep(null); showReceipt(p); return; }
    if (["cancelled", "refunded", "failed-captured"].includes(p.status)) { keep(null); return; }
    await new Promise((r) => setTimeout(r, 700));
  }
}

$("pay").addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors();
  say("");
  const kind = method();
  const problems = [];
  const email = emailProblem();
  if (email) problems.push(["email", email]);
  const amount = amountProblem();
  if (amount) problems.push(["custom-amount", amount]);
  if (!cardElement) problems.push(...(kind === "card" ? cardProblems() : bankProblems()));
  problems.forEach(([id, message]) => showError(id, message));
  const values = params ? params.read() : { ok: true, values: {}, first: null };
  if (problems.length > 0 || !values.ok) {
    say("Please check the highlighted fields.", "error");
    const first = problems.length > 0 ? $(problems[0][0]) : values.first;
    if (first) first.focus();
    return;
  }
  $("submit").disabled = true;
  say("Processing…", "pending");
  try {
    // The card first: a card Stripe refuses is reported before any payment is opened.
    const payment_method = await paymentMethod(kind);
    const customAmount = $("custom-amount").value.trim();
    const order = JSON.stringify({
      email: $("email").value.trim(), payment_provider: kind,
      ...(view.price.type === "dynamic" && customAmount ? { amount: customAmount } : {}),
      ...(view.has_params ? { trigger_data_input: { params_data_input: values.values } } : {}),
    });
    const mine = await paymentFor(order);
    if (!mine.busy) {
      await api(base + "/payments/" + mine.id + "/confirm", { method: "POST", body: JSON.stringify({ payment_method }) }, mine.payment_token);
    }
    await follow(mine.id, mine.payment_token);
  } catch (error) {
    say(placeErrors(error, "The payment could not be made."), "error");
    formBack();
  }
});

// Back from a 3-D Secure step: carry on following the payment this tab started.
if (kept && new URLSearchParams(location.search).has("payment_intent")) {
  follow(kept.id, kept.payment_token, true).catch((error) => { say(placeErrors(error, ""), "error"); formBack(); });
}
})();
`;
