import { BRAND_STYLE, brandCss, brandHeader, type PageBrand } from "../../platform/pages/brand.ts";
import { PAGE_STYLE, styleHashSource } from "../../platform/pages/style.ts";
import type { AppRow, KycRow } from "./presenters.ts";

// The shared stylesheet (src/platform/pages/style.ts) and the widget's few rules, inline and
// allowed by their hash: the page has no script, so no nonce is needed, and no external asset.
const STYLE = `${PAGE_STYLE}
#status{display:flex;flex-wrap:wrap;gap:var(--pb-space-sm);align-items:baseline}#status p{margin:0;flex-basis:100%}
.enabled{display:grid;gap:var(--pb-space-xs);margin:var(--pb-space-sm) 0 0;padding:0;list-style:none;flex-basis:100%}
form{margin-top:var(--pb-space-lg)}form button[type=submit]{width:100%}
#missing{margin:0 0 var(--pb-space-md);padding-left:1.25rem}${BRAND_STYLE}`.replace(/\n/g, "");

/** The page's whole stylesheet: the widget's, then the app's accent colour (none for no brand). */
const widgetStyle = (brand: PageBrand | null) => `${STYLE}${brandCss(brand)}`;

/**
 * The page's CSP: nothing but its own inline style (by its hash, the app's accent included) and
 * images from here (the app's icon); forms post only back here.
 */
export function contentSecurityPolicy(
  app: AppRow | null,
  onboardingOrigin: string | null = null,
  brand: PageBrand | null = null,
): string {
  let ancestors = "'none'";
  // An app may embed its own widget: only the origin of its return URL may frame the page.
  if (app?.kycReturnUrl) {
    try {
      ancestors = new URL(app.kycReturnUrl).origin;
    } catch {}
  }
  return [
    "default-src 'none'",
    `style-src ${styleHashSource(widgetStyle(brand))}`,
    "img-src 'self' data:",
    // Browsers hold a form's redirects to form-action too: hosted onboarding is one such redirect.
    `form-action 'self'${onboardingOrigin ? ` ${onboardingOrigin}` : ""}`,
    "base-uri 'none'",
    `frame-ancestors ${ancestors}`,
  ].join("; ");
}

const escapeHtml = (value: unknown) =>
  String(value ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );

const LABELS: Record<string, string> = {
  "individual.first_name": "Your first name",
  "individual.last_name": "Your last name",
  "individual.dob": "Your date of birth",
  "individual.address.line1": "Your address",
  "individual.address.city": "Your city",
  "individual.address.postal_code": "Your postal code",
  "individual.email": "Your email address",
  "tos_acceptance.date": "Acceptance of the terms of service",
  "individual.verification.document": "An identity document",
  "individual.verification.additional_document": "An additional document",
  external_account: "A bank account for payouts",
};

function layout(title: string, body: string, refresh = false, brand: PageBrand | null = null): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">${refresh ? '<meta http-equiv="refresh" content="2">' : ""}<title>${escapeHtml(title)}</title>
<style>${widgetStyle(brand)}</style></head><body><main class="page">${brandHeader(brand)}<div class="card">${body}</div></main></body></html>`;
}

export function errorPage(status: number, message: string, details: string[] = []): string {
  const list = details.length
    ? `<ul class="alert alert-danger">${details.map((d) => `<li>${escapeHtml(d)}</li>`).join("")}</ul>`
    : "";
  return layout(
    "KYC",
    `<h1>${status === 404 ? "Link not valid" : "Something is not right"}</h1>
<p class="alert alert-danger">${escapeHtml(message)}</p>${list}<p>Go back and try again.</p>`,
  );
}

function returnLink(kyc: KycRow, app: AppRow, name: string): string {
  if (!app.kycReturnUrl) return "";
  const url = new URL(app.kycReturnUrl);
  url.searchParams.set("kyc_id", kyc.id);
  url.searchParams.set("business_status", kyc.businessStatus);
  return `<a class="button secondary" id="return" href="${escapeHtml(url.toString())}">Return to ${escapeHtml(name)}</a>`;
}

/** What is still missing, in words, and why an earlier input was refused. */
function missingList(kyc: KycRow): string {
  const requirements = kyc.requirements as { currently_due: string[]; errors: { reason: string }[] } | null;
  const due = requirements
    ? requirements.currently_due
    : ["individual.first_name", "external_account", "individual.verification.document"];
  const labels = [...new Set(due.map((r) => LABELS[r] ?? r))];
  const errors = requirements?.errors ?? [];
  return `${labels.length ? `<h2>Still needed</h2><ul id="missing">${labels.map((l) => `<li>${escapeHtml(l)}</li>`).join("")}</ul>` : ""}
${errors.length ? `<ul class="alert alert-danger" id="provider-errors">${errors.map((e) => `<li>${escapeHtml(e.reason)}</li>`).join("")}</ul>` : ""}`;
}

const field = (name: string, label: string, value = "", type = "text", extra = "") =>
  `<label for="${name}">${label}</label><input id="${name}" name="${name}" type="${type}" value="${escapeHtml(value)}" required ${extra}>`;

/** The status in words, as a badge: what the seller should make of it. */
const STATUS_BADGES: Record<string, [string, string]> = {
  pending: ["Pending", "neutral"],
  incomplete: ["Action needed", "warning"],
  completed: ["Verified", "success"],
};

function statusBlock(kyc: KycRow, processing: boolean): string {
  const [label, tone] = processing
    ? ["Checking", "warning"]
    : (STATUS_BADGES[kyc.businessStatus] ?? [kyc.businessStatus, "neutral"]);
  const state = (enabled: boolean) => (enabled ? "enabled" : "not enabled yet");
  return `<div id="status" data-status="${escapeHtml(kyc.businessStatus)}">
<span>Status</span> <span class="pill pill-${tone}">${escapeHtml(label)}</span>
<ul class="enabled"><li>Payments: <strong>${state(kyc.chargesEnabled)}</strong></li><li>Payouts: <strong>${state(kyc.payoutsEnabled)}</strong></li></ul>
${processing ? '<p id="processing" class="alert alert-warning">Checking what you sent… this page updates by itself.</p>' : ""}</div>`;
}

/** The widget; `brand` is the app's face (src/modules/apps/for-pages.ts): its shown name, icon, colour. */
export function widgetPage(
  kyc: KycRow,
  app: AppRow,
  token: string,
  hosted: boolean,
  brand: PageBrand | null = null,
): string {
  const name = brand?.name ?? app.name;
  const base = `/kyc/${encodeURIComponent(token)}`;
  const processing = kyc.pendingActions > 0 && Date.now() - kyc.updatedAt.getTime() < 120_000;
  const banks = (kyc.bankAccounts as { status: string; last4: string }[] | null) ?? [];
  const goodBank = banks.find((b) => b.status !== "errored");
  const docs = (kyc.requiredDocuments as unknown[] | null) ?? [];
  const completed = kyc.businessStatus === "completed";
  const parts = [`<h1>Get paid by ${escapeHtml(name)}</h1>`, statusBlock(kyc, processing)];
  if (!kyc.active) parts.push('<p class="alert alert-danger">This seller account is deactivated.</p>');
  if (!completed) parts.push(missingList(kyc));
  if (!processing && kyc.active && !completed && hosted) {
    parts.push(`<form method="post" action="${base}/onboarding" id="hosted"><p>Your identity and bank account are
collected by our payment provider, on its own secure pages.</p><button type="submit">Continue to the payment provider</button></form>`);
  } else if (!processing && kyc.active && !completed) {
    if (!kyc.detailsSubmitted) {
      parts.push(`<form method="post" action="${base}/details" id="details"><fieldset><legend>Your details</legend>
${field("first_name", "First name")}${field("last_name", "Last name")}
${field("email", "Email", kyc.email ?? "", "email")}${field("dob", "Date of birth", "", "date")}
<label for="country">Country</label><select id="country" name="country"><option value="US">United States</option><option value="GB">United Kingdom</option>
<option value="FR">France</option><option value="DE">Germany</option></select>
${field("address_line1", "Address")}${field("city", "City")}${field("postal_code", "Postal code")}
<label class="check"><input type="checkbox" name="tos" value="accepted" required> I accept the payment provider's terms of service</label>
<button type="submit">Save details</button></fieldset></form>`);
    }
    if (!goodBank) {
      parts.push(`<form method="post" action="${base}/bank-account" id="bank"><fieldset><legend>Bank account for payouts</legend>
${field("account_holder_name", "Account holder")}${field("routing_number", "Routing number", "", "text", 'inputmode="numeric" pattern="[0-9]{9}"')}
${field("account_number", "Account number", "", "text", 'inputmode="numeric" autocomplete="off" pattern="[0-9]{4,17}"')}
<input type="hidden" name="country" value="US"><input type="hidden" name="currency" value="usd">
<button type="submit">Add bank account</button></fieldset></form>`);
    } else {
      parts.push(`<p id="bank-added">Payouts go to the account ending in ${escapeHtml(goodBank.last4)}.</p>`);
    }
    if (docs.length > 0) {
      parts.push(`<form method="post" action="${base}/documents" enctype="multipart/form-data" id="document">
<fieldset><legend>Identity document</legend><label for="document-file">A photo or scan of your passport or ID card</label>
<input id="document-file" type="file" name="document" accept="image/jpeg,image/png,application/pdf" required>
<button type="submit">Upload document</button></fieldset></form>`);
    }
  }
  if (completed) parts.push('<p class="alert alert-success">You are all set: you can now be paid.</p>');
  parts.push(returnLink(kyc, app, name));
  return layout(`Get paid by ${name}`, parts.join("\n"), processing, brand);
}
