/**
 * The hosted checkout page. Server-rendered, no build step: the page's scripts (`CHECKOUT_URL`,
 * and the trigger parameters' `TRIGGER_FORM_URL`) and its one inline style are allowed by a
 * per-response nonce in a strict Content-Security-Policy. The only outside asset is Stripe.js, and
 * only when cards go through Stripe: its origin is then the one the policy adds. Values reach the
 * page as JSON in a data block, never spliced into markup or script.
 */
import { escapeHtml, jsonForScript } from "../../platform/http/html.ts";
import type { PaymentProvider } from "../../platform/money/settings.ts";
import { BRAND_STYLE, brandCss, brandHeader, type PageBrand } from "../../platform/pages/brand.ts";
import { CARD_NUMBER_URL } from "../../platform/pages/card-number.ts";
import { PAGE_STYLE } from "../../platform/pages/style.ts";
import { PARAM_FIELDS_STYLE, paramFields, TRIGGER_FORM_URL } from "../triggers/form.ts";
import type { Param } from "../triggers/params.ts";
import type { ChargeSummary } from "./checkout-view.ts";

/** Where the page's own script is served (`checkout-script.ts`). */
export const CHECKOUT_URL = "/assets/checkout.js";

export interface CheckoutView {
  price: {
    id: string;
    name: string;
    type: string;
    currency: string;
    exponent: number;
    amount_minor: string;
    amount_decimal: string;
    amount_text: string;
    expired: boolean;
  };
  /** The summary at the price's own amount, per payment method offered. */
  quotes: Partial<Record<PaymentProvider, ChargeSummary>>;
  params: Param[];
  sandbox: boolean;
  /**
   * Set when the app's provider is Stripe: the page loads Stripe.js from `jsUrl` and mounts Stripe's
   * card Element, so card numbers go from the shopper's browser to Stripe and never reach this
   * server. The publishable key is public by design; the secret key never comes near the page.
   */
  stripe: { publishableKey: string; jsUrl: string } | null;
  /** The app's name, icon and accent colour (src/modules/apps/for-pages.ts); null if unknown. */
  brand: PageBrand | null;
}

/** Stripe's own Stripe.js (docs.stripe.com/security/guide) calls api.stripe.com from the page. */
const STRIPE_JS_ORIGIN = "https://js.stripe.com";
const STRIPE_API_ORIGIN = "https://api.stripe.com";

/**
 * The origins the page needs for Stripe.js: the script's own origin for the script and its Element
 * frames, and the API it calls. That is api.stripe.com for Stripe's Stripe.js; a stand-in Stripe.js
 * (tests) answers its API calls on its own origin.
 */
function stripeSources(jsUrl: string) {
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

// The checkout's own layout on top of the shared stylesheet (src/platform/pages/style.ts).
const STYLE = `${PAGE_STYLE}
.page{max-width:32rem}.element{border:1px solid var(--pb-color-muted);border-radius:var(--pb-radius-medium);padding:12px}
dl.lines{margin:0 0 var(--pb-space-md);padding:var(--pb-space-sm) var(--pb-space-md);background:var(--pb-color-surface-alt);
border-radius:var(--pb-radius-medium)}
dl.lines div{display:flex;justify-content:space-between;gap:var(--pb-space-md);padding:var(--pb-space-xs) 0}
dl.lines dt{color:var(--pb-color-muted)}dl.lines dd{margin:0;text-align:right;font-variant-numeric:tabular-nums}
dl.lines .total{border-top:1px solid var(--pb-color-border);margin-top:var(--pb-space-xs);padding-top:var(--pb-space-sm);
font-weight:700}dl.lines .total dt{color:var(--pb-color-text)}
#progress{margin:var(--pb-space-md) 0}#progress .head{display:flex;justify-content:space-between;align-items:center;
margin-bottom:var(--pb-space-sm)}
progress{display:block;width:100%;height:8px;appearance:none;border:0;border-radius:999px;overflow:hidden;
background:var(--pb-color-surface-alt);accent-color:var(--pb-color-primary)}
progress::-webkit-progress-bar{background:var(--pb-color-surface-alt)}progress::-webkit-progress-value{background:var(--pb-color-primary)}
#submit{width:100%;margin-top:var(--pb-space-lg)}#receipt-id{word-break:break-all}
.card-number{position:relative}.card-number:has(#card-brand:not(:empty)) input{padding-right:9.5rem}
#card-brand{position:absolute;right:12px;top:50%;transform:translateY(-50%);pointer-events:none;
color:var(--pb-color-muted);font-size:var(--pb-font-size-small);font-weight:600;white-space:nowrap}
${BRAND_STYLE}${PARAM_FIELDS_STYLE}`.replace(/\n/g, "");

/** A field's own error line, filled by the script next to the field it concerns. */
const errorSlot = (id: string) => `<p class="field-error" id="${id}-error" hidden></p>`;
const input = (id: string, attributes: string) =>
  `<input id="${id}" name="${id}" ${attributes} aria-describedby="${id}-error">${errorSlot(id)}`;

/** The card inputs: Stripe's card Element with Stripe, the sandbox's own test-card fields otherwise. */
function cardFields(view: CheckoutView): string {
  if (view.stripe) {
    return `<div id="card-fields">
    <label id="card-label">Card</label><div id="card-element" class="element" aria-labelledby="card-label"></div>${errorSlot("card-element")}
  </div>`;
  }
  return `<div id="card-fields">
    <label for="number">Card number</label>
    <div class="card-number"><input id="number" name="number" inputmode="numeric" autocomplete="cc-number" data-card-number data-card-brand="card-brand" aria-describedby="card-brand number-error"><span id="card-brand"></span></div>${errorSlot("number")}
    <div class="row"><div><label for="exp">Expiry (MM/YY)</label>${input("exp", 'placeholder="12/30" autocomplete="cc-exp"')}</div>
    <div><label for="cvc">CVC</label>${input("cvc", 'inputmode="numeric" autocomplete="cc-csc"')}</div></div>
  </div>
  <div id="bank-fields" hidden>
    <label for="holder">Account holder</label>${input("holder", 'autocomplete="name"')}
    <label for="routing">Routing number</label>${input("routing", 'inputmode="numeric"')}
    <label for="account">Account number</label>${input("account", 'inputmode="numeric"')}
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

/** The lines of a charge; `prefix` names the elements the script updates. */
function summaryLines(summary: ChargeSummary, prefix: string, converting: string): string {
  return `<dl class="lines" id="${prefix}">
    <div><dt>Price</dt><dd id="${prefix}-price">${escapeHtml(summary.price)}</dd></div>
    <div id="${prefix}-converted-row"${summary.converted ? "" : " hidden"}><dt>Price in ${escapeHtml(converting)}</dt><dd id="${prefix}-converted">${escapeHtml(summary.converted ?? "")}</dd></div>
    <div><dt>Fees</dt><dd id="${prefix}-fees">${escapeHtml(summary.fees)}</dd></div>
    <div class="total"><dt>Total charged</dt><dd id="${prefix}-total">${escapeHtml(summary.total)}</dd></div>
  </dl>`;
}

/** The start of every checkout document: the shared style, the checkout's, the app's accent. */
function head(title: string, nonce: string, brand: PageBrand | null): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style nonce="${nonce}">${STYLE}${brandCss(brand)}</style>`;
}

export function checkoutPage(view: CheckoutView, chargeCurrency: string, nonce: string): string {
  const { price } = view;
  const first = view.quotes.card ?? Object.values(view.quotes)[0]!;
  const converting = chargeCurrency.toUpperCase();
  // The view block carries no descriptors: the fields carry their own specs.
  const data = { ...view, params: undefined, brand: undefined, has_params: view.params.length > 0 };
  return `${head(`Pay: ${price.name}`, nonce, view.brand)}
${view.stripe ? `<script nonce="${nonce}" src="${escapeHtml(view.stripe.jsUrl)}"></script>` : ""}
</head>
<body><main class="page">${brandHeader(view.brand)}<div class="card">
<h1>${escapeHtml(price.name)}</h1>
${view.sandbox ? '<p class="alert alert-info">Sandbox: use test card 4242 4242 4242 4242. Nothing is charged.</p>' : ""}
<section id="summary" aria-label="What you pay">${summaryLines(first, "quote", converting)}</section>
<form id="pay" novalidate>
  <label for="email">Email (for your receipt)</label>${input("email", 'type="email" autocomplete="email"')}
  <div id="amount-field"${price.type === "dynamic" ? "" : " hidden"}>
    <label for="custom-amount">Amount (${escapeHtml(price.currency.toUpperCase())}, at least ${escapeHtml(price.amount_text)})</label>
    ${input("custom-amount", `inputmode="decimal" placeholder="${escapeHtml(price.amount_decimal)}"`)}
  </div>
  ${paramFields(view.params)}
  ${methodField(view)}
  ${cardFields(view)}
  <button id="submit" type="submit">Pay ${escapeHtml(first.total)}</button>
</form>
<div id="progress" hidden><div class="head"><span>Payment</span><span id="payment-status" class="pill pill-warning">Pending</span></div>
<progress id="bar" max="100" value="0" aria-label="Payment progress"></progress></div>
<p id="message" role="status" aria-live="polite"></p>
<section id="receipt" hidden aria-labelledby="receipt-title">
  <h2 id="receipt-title">Receipt</h2>
  ${summaryLines(first, "receipt", converting)}
  <p>Paid by <span id="receipt-email"></span>. Payment <code id="receipt-id"></code>.</p>
</section>
<p id="link" hidden><a id="tx" rel="noopener noreferrer" target="_blank">View the transaction</a></p>
</div></main>
<script type="application/json" id="view">${jsonForScript(data)}</script>
<script nonce="${nonce}" src="${TRIGGER_FORM_URL}"></script>
${view.stripe ? "" : `<script nonce="${nonce}" src="${CARD_NUMBER_URL}"></script>\n`}<script nonce="${nonce}" src="${CHECKOUT_URL}"></script>
</body></html>`;
}

/**
 * The page's answer when there is nothing to pay: an unknown or deleted price (404), an expired
 * one (410), or a failure. Same look as the checkout, no script; the app's face when it is known.
 */
export function checkoutErrorPage(
  heading: string,
  message: string,
  nonce: string,
  { requestId, brand = null }: { requestId?: string | undefined; brand?: PageBrand | null } = {},
) {
  return `${head(heading, nonce, brand)}
</head>
<body><main class="page">${brandHeader(brand)}<div class="card">
<h1>${escapeHtml(heading)}</h1>
<p id="problem">${escapeHtml(message)}</p>
${requestId ? `<p><small>Reference: <code>${escapeHtml(requestId)}</code></small></p>` : ""}
</div></main></body></html>`;
}
