import { randomBytes } from "node:crypto";
import type { Deps } from "../../deps.ts";
import { escapeHtml, jsonForScript } from "../../platform/http/html.ts";
import type { Currency } from "../../platform/money/currencies.ts";
import { BRAND_STYLE, brandCss, brandHeader, type PageBrand } from "../../platform/pages/brand.ts";
import { strictPolicy } from "../../platform/pages/html.ts";
import { PAGE_STYLE } from "../../platform/pages/style.ts";
import { appBrand } from "../apps/for-pages.ts";
import { PARAM_FIELDS_STYLE, paramFields, TRIGGER_FORM_URL } from "../triggers/form.ts";
import type { Param } from "../triggers/params.ts";
import { viewAuction } from "./live.ts";
import { AUCTION_SCRIPT } from "./page-script.ts";

/** Content-Security-Policy of the page: nothing from elsewhere, only this page's own script and style. */
const pagePolicy = strictPolicy;

// The page's own layout on top of the shared stylesheet: the price first, large.
const STYLE = `${PAGE_STYLE}
.head{display:flex;justify-content:space-between;align-items:flex-start;gap:var(--pb-space-sm)}
.price{margin:var(--pb-space-md) 0}.price .label{margin:0;color:var(--pb-color-muted);font-size:var(--pb-font-size-small)}
#current{display:block;font-size:2rem;font-weight:700;line-height:1.2;font-variant-numeric:tabular-nums}
#current.none{font-size:var(--pb-font-size-large);font-weight:600}
.facts{display:grid;grid-template-columns:repeat(auto-fit,minmax(11rem,1fr));gap:var(--pb-space-sm) var(--pb-space-md);margin:0}
.facts dt{color:var(--pb-color-muted);font-size:var(--pb-font-size-small)}.facts dd{margin:0;font-weight:600}
#countdown{display:block;font-weight:400;color:var(--pb-color-muted);font-variant-numeric:tabular-nums}
#you{display:flex;gap:var(--pb-space-sm);align-items:baseline;flex-wrap:wrap}#you p{margin:0;font-weight:600}
#bids{list-style:none;margin:0;padding:0}
#bids li{display:grid;grid-template-columns:1fr auto;gap:2px var(--pb-space-sm);padding:12px 0;border-top:1px solid var(--pb-color-border)}
#bids li:first-child{border-top:0}#bids time{color:var(--pb-color-muted);font-size:var(--pb-font-size-small)}
#bids .pill{justify-self:end}#bids strong{text-align:right;font-variant-numeric:tabular-nums}
${BRAND_STYLE}${PARAM_FIELDS_STYLE}`.replace(/\n/g, "");

/** The page, with the app's name, icon and accent colour when `brand` is given (src/modules/apps/for-pages.ts). */
export function renderAuctionPage(
  state: {
    id: string;
    app_id: string;
    name: string;
    currency: Currency;
    ends_at: string;
    params?: Param[];
  },
  brand: PageBrand | null = null,
) {
  const nonce = randomBytes(16).toString("base64");
  const code = state.currency.code.toUpperCase();
  const config = { id: state.id, app_id: state.app_id, currency: state.currency, ends_at: state.ends_at };
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>${escapeHtml(state.name)}</title><style nonce="${nonce}">${STYLE}${brandCss(brand)}</style></head>
<body><main class="page">${brandHeader(brand)}
<section class="card" aria-labelledby="name">
<div class="head"><h1 id="name">${escapeHtml(state.name)}</h1><span id="state" class="pill pill-neutral">…</span></div>
<p class="price"><span class="label">Current bid</span><span id="current" aria-live="polite">…</span></p>
<dl class="facts">
<div id="next"><dt>Next bid at least</dt><dd id="minimum">…</dd></div>
<div><dt>Ends</dt><dd><time id="ends" data-local datetime="${escapeHtml(state.ends_at)}">${escapeHtml(state.ends_at)}</time>
<span id="countdown"></span></dd></div>
</dl>
</section>
<section class="card" id="you" aria-live="polite" hidden><span id="standing-pill" class="pill" hidden></span><p id="standing"></p></section>
<section class="card">
<p id="closed" class="alert alert-info" hidden>Bidding is closed.</p>
<fieldset id="signin"><legend>Sign in to bid</legend>
<label for="email">Email</label><input id="email" type="email" autocomplete="email">
<button id="send-code" type="button" class="secondary">Send me a code</button>
<label for="code">Code from the email</label><input id="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6">
<button id="sign-in" type="button">Sign in</button></fieldset>
<fieldset id="bidding" hidden><legend id="who"></legend>
<label for="amount">Your bid (${escapeHtml(code)})</label><input id="amount" inputmode="decimal" autocomplete="off">
<label for="card">Card number</label><input id="card" value="4242 4242 4242 4242" inputmode="numeric" autocomplete="off">
<div class="row"><div><label for="exp">Expiry (MM/YY)</label><input id="exp" value="12/30" autocomplete="off"></div>
<div><label for="cvc">CVC</label><input id="cvc" value="123" inputmode="numeric" autocomplete="off"></div></div>
${paramFields(state.params ?? [], "Details for your purchase")}
<button id="bid" type="button" class="block">Place bid</button></fieldset>
<p id="message" role="status" aria-live="polite"></p>
</section>
<section class="card" aria-labelledby="bids-title"><h2 id="bids-title">Bids</h2>
<p id="no-bids" class="muted">No bids yet.</p><ol id="bids" reversed></ol></section>
</main>
<script type="application/json" id="cfg">${jsonForScript(config)}</script>
<script nonce="${nonce}" src="${TRIGGER_FORM_URL}"></script>
<script nonce="${nonce}">${AUCTION_SCRIPT}</script>
</body></html>`;
  return { html, policy: pagePolicy(nonce) };
}

/** The public page of an auction: its state as the page shows it, with its app's brand. */
export async function auctionPage(deps: Deps, auctionId: string) {
  const auction = await viewAuction(deps, auctionId);
  return renderAuctionPage(auction, await appBrand(deps.db, auction.app_id));
}
