/**
 * The hosted checkout page. Server-rendered, no build step: one inline script and one inline
 * style, both allowed by a per-response nonce in a strict Content-Security-Policy. The only outside
 * asset is Stripe.js, and only when cards go through Stripe: its origin is then the one the policy
 * adds. Values reach the page as JSON in a data block, never spliced into markup or script.
 */
const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

// `<` escaped so a value can never close the data block.
const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

export interface CheckoutView {
  price: { id: string; name: string; amount: number; currency: string; type: string; expired: boolean };
  sandbox: boolean;
  /**
   * Set when the app's provider is Stripe: the page loads Stripe.js from `jsUrl` and mounts Stripe's
   * card Element, so card numbers go from the shopper's browser to Stripe and never reach this
   * server. The publishable key is public by design; the secret key never comes near the page.
   */
  stripe: { publishableKey: string; jsUrl: string } | null;
}

/** Stripe's own Stripe.js (docs.stripe.com/security/guide) calls api.stripe.com from the page. */
const STRIPE_JS_ORIGIN = "https://js.stripe.com";
const STRIPE_API_ORIGIN = "https://api.stripe.com";

/**
 * The origins the page needs for Stripe.js: the script's own origin for the script and its Element
 * frames, and the API it calls. That is api.stripe.com for Stripe's Stripe.js; a stand-in Stripe.js
 * (tests) answers its API calls on its own origin.
 */
export function stripeSources(jsUrl: string) {
  const origin = new URL(jsUrl).origin;
  return { script: origin, frame: origin, connect: origin === STRIPE_JS_ORIGIN ? STRIPE_API_ORIGIN : origin };
}

/** The page's Content-Security-Policy: nonce-only, plus Stripe.js's origins when Stripe is used. */
export function checkoutPolicy(nonce: string, stripeJsUrl: string | null): string {
  const stripe = stripeJsUrl ? stripeSources(stripeJsUrl) : null;
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'${stripe ? ` ${stripe.script}` : ""}`,
    `style-src 'nonce-${nonce}'`,
    `connect-src 'self'${stripe ? ` ${stripe.connect}` : ""}`,
    ...(stripe ? [`frame-src ${stripe.frame}`] : []),
    "img-src 'self' data:",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

/** The card inputs: Stripe's card Element with Stripe, the sandbox's own test-card fields otherwise. */
function cardFields(view: CheckoutView): string {
  if (view.stripe) {
    return `<div id="card-fields">
    <label id="card-label">Card</label><div id="card-element" class="element" aria-labelledby="card-label"></div>
  </div>`;
  }
  return `<div id="card-fields">
    <label for="number">Card number</label><input id="number" name="number" inputmode="numeric" autocomplete="cc-number">
    <div class="row"><div><label for="exp">Expiry (MM/YY)</label><input id="exp" name="exp" placeholder="12/30" autocomplete="cc-exp"></div>
    <div><label for="cvc">CVC</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc"></div></div>
  </div>
  <div id="bank-fields" hidden>
    <label for="holder">Account holder</label><input id="holder" name="holder">
    <label for="routing">Routing number</label><input id="routing" name="routing" inputmode="numeric">
    <label for="account">Account number</label><input id="account" name="account" inputmode="numeric">
  </div>`;
}

/**
 * With Stripe only cards are offered: a bank debit made in the browser needs Stripe's Financial
 * Connections or micro-deposit verification, which this page does not run (docs/payments.md).
 */
function methodField(view: CheckoutView): string {
  if (view.stripe) return `<input id="method" name="method" type="hidden" value="card">`;
  return `<label for="method">Pay with</label>
  <select id="method" name="method"><option value="card">Card</option><option value="us_bank_account">US bank account</option></select>`;
}

export function checkoutPage(view: CheckoutView, nonce: string): string {
  const { price } = view;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pay: ${escapeHtml(price.name)}</title>
<link rel="icon" href="data:,">
<style nonce="${nonce}">
body{font-family:system-ui,sans-serif;max-width:30rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;margin:.6rem 0 .2rem}input,select,button{font:inherit;padding:.45rem;width:100%;box-sizing:border-box}
button{margin-top:1rem;cursor:pointer}.row{display:flex;gap:.5rem}.row>div{flex:1}
#message{margin-top:1rem;min-height:1.5rem}.error{color:#b00020}.ok{color:#0a7a2f}[hidden]{display:none}
progress{width:100%}.element{border:1px solid #767676;border-radius:2px;padding:.6rem}
</style>
${view.stripe ? `<script nonce="${nonce}" src="${escapeHtml(view.stripe.jsUrl)}"></script>` : ""}
</head>
<body>
<h1>${escapeHtml(price.name)}</h1>
<p id="amount"></p>
${view.sandbox ? "<p><small>Sandbox: use test card 4242 4242 4242 4242. Nothing is charged.</small></p>" : ""}
<form id="pay"${price.expired ? " hidden" : ""}>
  <label for="email">Email</label><input id="email" name="email" type="email" required autocomplete="email">
  <div id="amount-field"${price.type === "dynamic" ? "" : " hidden"}>
    <label for="custom-amount">Amount (${escapeHtml(price.currency.toUpperCase())}, at least ${price.amount})</label>
    <input id="custom-amount" name="amount" inputmode="decimal">
  </div>
  ${methodField(view)}
  ${cardFields(view)}
  <button id="submit" type="submit">Pay</button>
</form>
<p id="expired"${price.expired ? "" : " hidden"}>This price can no longer be paid.</p>
<div id="progress" hidden><progress id="bar" max="100" value="0"></progress></div>
<p id="message" role="status" aria-live="polite"></p>
<p id="link" hidden><a id="tx" rel="noopener noreferrer" target="_blank">View the transaction</a></p>
<script type="application/json" id="view">${jsonForScript(view)}</script>
<script nonce="${nonce}">
const view = JSON.parse(document.getElementById("view").textContent);
const $ = (id) => document.getElementById(id);
const base = "/checkout/" + encodeURIComponent(view.price.id);
const say = (text, kind) => { $("message").textContent = text; $("message").className = kind || ""; };
$("amount").textContent = view.price.amount + " " + view.price.currency.toUpperCase();
$("method").addEventListener("change", () => {
  const bank = $("method").value === "us_bank_account";
  $("bank-fields").hidden = !bank; $("card-fields").hidden = bank;
});
// With Stripe the card is typed into Stripe's Element (a frame of Stripe.js's origin) and becomes a
// payment method (pm_…) there: this page never sees the card number.
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
async function paymentMethod(method) {
  if (cardElement) {
    const result = await stripe.createPaymentMethod({ type: "card", card: cardElement, billing_details: { email: $("email").value } });
    if (result.error) throw new Error(result.error.message || "The card was not accepted");
    return { type: "token", id: result.paymentMethod.id };
  }
  if (method !== "card") {
    return { type: "us_bank_account", routing_number: $("routing").value, account_number: $("account").value, account_holder_name: $("holder").value };
  }
  const [month, year] = $("exp").value.split("/").map((s) => Number(s.trim()));
  return { type: "card", number: $("number").value.replace(/\\s/g, ""), exp_month: month || 0, exp_year: year < 100 ? 2000 + year : year || 0, cvc: $("cvc").value };
}
const LABELS = { pending: "Waiting for the payment…", hold: "Payment authorised; running the transaction…",
  paid: "Paid. Thank you!", failed: "The payment failed.", cancelled: "The payment was cancelled.",
  refunded: "The payment was refunded.", "failed-captured": "The transaction failed; you will be refunded.",
  "failed-transfers": "Paid. Thank you!" };
async function api(path, init, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers["x-payment-token"] = token;
  const answer = await fetch(path, { ...init, headers });
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) throw new Error(body.detail || "Something went wrong");
  return body;
}
async function follow(paymentId, token, returned) {
  $("pay").hidden = true; $("progress").hidden = false;
  for (;;) {
    const p = await api(base + "/payments/" + paymentId, { method: "GET" }, token);
    // Back from the step, the payment takes a moment to learn of it: wait rather than go again.
    if (p.next_action && p.status === "pending" && !returned) { location.assign(p.next_action.url); return; }
    $("bar").value = p.status === "paid" ? 100 : p.confirmation_status.progress || (p.status === "hold" ? 50 : 10);
    if (p.transaction_url) { $("tx").href = p.transaction_url; $("link").hidden = false; }
    if (p.status === "failed") {
      say((p.error && p.error.message ? p.error.message + " " : "") + "Try another payment method.", "error");
      sessionStorage.removeItem("checkout:" + view.price.id);
      $("pay").hidden = false; $("progress").hidden = true; $("submit").disabled = false;
      return;
    }
    say(LABELS[p.status] || p.status, p.status === "paid" ? "ok" : "");
    if (["paid", "cancelled", "refunded", "failed-captured", "failed-transfers"].includes(p.status)) {
      sessionStorage.removeItem("checkout:" + view.price.id);
      return;
    }
    await new Promise((r) => setTimeout(r, 700));
  }
}
$("pay").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("submit").disabled = true; say("Processing…");
  try {
    const method = $("method").value;
    // The card first: a mistyped card is refused before any payment is opened.
    const payment_method = await paymentMethod(method);
    const created = await api(base + "/payments", { method: "POST", body: JSON.stringify({
      email: $("email").value, payment_provider: method,
      ...(view.price.type === "dynamic" && $("custom-amount").value ? { amount: $("custom-amount").value } : {}),
    }) });
    sessionStorage.setItem("checkout:" + view.price.id, JSON.stringify(created));
    await api(base + "/payments/" + created.id + "/confirm", { method: "POST", body: JSON.stringify({ payment_method }) }, created.payment_token);
    await follow(created.id, created.payment_token);
  } catch (error) {
    say(error.message, "error"); $("submit").disabled = false;
  }
});
// Back from a 3-D Secure step: carry on following the payment this tab started.
const resumed = sessionStorage.getItem("checkout:" + view.price.id);
if (resumed && new URLSearchParams(location.search).has("payment_intent")) {
  const { id, payment_token } = JSON.parse(resumed);
  follow(id, payment_token, true).catch((error) => say(error.message, "error"));
}
</script>
</body></html>`;
}
