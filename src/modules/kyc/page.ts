import { createHash } from "node:crypto";
import type { AppRow, KycRow } from "./presenters.ts";

// One stylesheet, inline, allowed by its hash: no external asset, no 'unsafe-inline'.
const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
h1{font-size:1.4rem}fieldset{border:1px solid #d5d9e2;border-radius:8px;margin:1rem 0;padding:1rem}
label{display:block;margin:.5rem 0}input,select{display:block;width:100%;padding:.4rem;box-sizing:border-box}
input[type=checkbox]{display:inline;width:auto}button,.return{margin-top:.8rem;padding:.5rem 1rem;border-radius:6px;
border:0;background:#3a4ee0;color:#fff;text-decoration:none;display:inline-block}.status{padding:.8rem;border-radius:8px;
background:#f2f4f8}.errors{color:#a3202a}.done{background:#e3f6e8}`;
const STYLE_HASH = createHash("sha256").update(STYLE).digest("base64");

/** The page's CSP: nothing but its own inline style; forms post only back here. */
export function contentSecurityPolicy(app: AppRow | null, onboardingOrigin: string | null = null): string {
  let ancestors = "'none'";
  // An app may embed its own widget: only the origin of its return URL may frame the page.
  if (app?.kycReturnUrl) {
    try {
      ancestors = new URL(app.kycReturnUrl).origin;
    } catch {}
  }
  return [
    "default-src 'none'",
    `style-src 'sha256-${STYLE_HASH}'`,
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

function layout(title: string, body: string, refresh = false): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer">
${refresh ? '<meta http-equiv="refresh" content="2">' : ""}<title>${escapeHtml(title)}</title>
<style>${STYLE}</style></head><body>${body}</body></html>`;
}

export function errorPage(status: number, message: string, details: string[] = []): string {
  const list = details.length
    ? `<ul class="errors">${details.map((d) => `<li>${escapeHtml(d)}</li>`).join("")}</ul>`
    : "";
  return layout(
    "KYC",
    `<h1>${status === 404 ? "Link not valid" : "Something is not right"}</h1>
<p class="errors">${escapeHtml(message)}</p>${list}<p>Go back and try again.</p>`,
  );
}

function returnLink(kyc: KycRow, app: AppRow): string {
  if (!app.kycReturnUrl) return "";
  const url = new URL(app.kycReturnUrl);
  url.searchParams.set("kyc_id", kyc.id);
  url.searchParams.set("business_status", kyc.businessStatus);
  return `<a class="return" id="return" href="${escapeHtml(url.toString())}">Return to ${escapeHtml(app.name)}</a>`;
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
${errors.length ? `<ul class="errors" id="provider-errors">${errors.map((e) => `<li>${escapeHtml(e.reason)}</li>`).join("")}</ul>` : ""}`;
}

const field = (name: string, label: string, value = "", type = "text", extra = "") =>
  `<label>${label}<input name="${name}" type="${type}" value="${escapeHtml(value)}" required ${extra}></label>`;

export function widgetPage(kyc: KycRow, app: AppRow, token: string, hosted: boolean): string {
  const base = `/kyc/${encodeURIComponent(token)}`;
  const processing = kyc.pendingActions > 0 && Date.now() - kyc.updatedAt.getTime() < 120_000;
  const banks = (kyc.bankAccounts as { status: string; last4: string }[] | null) ?? [];
  const goodBank = banks.find((b) => b.status !== "errored");
  const docs = (kyc.requiredDocuments as unknown[] | null) ?? [];
  const completed = kyc.businessStatus === "completed";
  const parts = [
    `<h1>Get paid by ${escapeHtml(app.name)}</h1>`,
    `<div class="status${completed ? " done" : ""}" id="status" data-status="${escapeHtml(kyc.businessStatus)}">
Status: <strong>${escapeHtml(kyc.businessStatus)}</strong>.
Payments ${kyc.chargesEnabled ? "enabled" : "not enabled yet"}; payouts ${kyc.payoutsEnabled ? "enabled" : "not enabled yet"}.
${processing ? '<p id="processing">Checking what you sent…</p>' : ""}</div>`,
  ];
  if (!kyc.active) parts.push('<p class="errors">This seller account is deactivated.</p>');
  if (!completed) parts.push(missingList(kyc));
  if (!processing && kyc.active && !completed && hosted) {
    parts.push(`<form method="post" action="${base}/onboarding" id="hosted"><p>Your identity and bank account are
collected by our payment provider, on its own secure pages.</p><button type="submit">Continue to the payment provider</button></form>`);
  } else if (!processing && kyc.active && !completed) {
    if (!kyc.detailsSubmitted) {
      parts.push(`<form method="post" action="${base}/details" id="details"><fieldset><legend>Your details</legend>
${field("first_name", "First name")}${field("last_name", "Last name")}
${field("email", "Email", kyc.email ?? "", "email")}${field("dob", "Date of birth", "", "date")}
<label>Country<select name="country"><option value="US">United States</option><option value="GB">United Kingdom</option>
<option value="FR">France</option><option value="DE">Germany</option></select></label>
${field("address_line1", "Address")}${field("city", "City")}${field("postal_code", "Postal code")}
<label><input type="checkbox" name="tos" value="accepted" required> I accept the payment provider's terms of service</label>
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
<fieldset><legend>Identity document</legend><label>A photo or scan of your passport or ID card
<input type="file" name="document" accept="image/jpeg,image/png,application/pdf" required></label>
<button type="submit">Upload document</button></fieldset></form>`);
    }
  }
  if (completed) parts.push("<p>You are all set: you can now be paid.</p>");
  parts.push(returnLink(kyc, app));
  return layout(`Get paid by ${app.name}`, parts.join("\n"), processing);
}
