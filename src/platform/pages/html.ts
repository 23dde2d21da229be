import { randomBytes } from "node:crypto";
import type { FastifyReply } from "fastify";
import { escapeHtml, jsonForScript } from "../http/html.ts";
import { BRAND_STYLE, brandCss, brandHeader, type PageBrand } from "./brand.ts";
import { PAGE_STYLE } from "./style.ts";

/**
 * Pieces the small hosted pages share (the invitation page, the sandbox inbox): server-rendered
 * HTML whose one inline script and one inline style run under a per-response nonce, values passed
 * to the script as a JSON data block (never spliced into markup or script), and headers that keep
 * a page out of frames, caches and Referer headers.
 */
export { escapeHtml, jsonForScript };

export const newNonce = () => randomBytes(16).toString("base64");

/**
 * Nothing from elsewhere: only the page's own nonce'd script and style, calls to this origin, images
 * from this origin (the app's icon), and no form posts (the script sends JSON itself), frames or
 * base changes.
 */
export function strictPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    // `'self'` for the app's uploaded icon; `data:` lets the empty favicon stop the browser asking
    // for /favicon.ico.
    "img-src 'self' data:",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
}

/** Sends a page with its policy; no-referrer and no-store, since some pages carry a token in the URL. */
export function sendPage(reply: FastifyReply, status: number, nonce: string, html: string) {
  return reply
    .code(status)
    .header("content-security-policy", strictPolicy(nonce))
    .header("referrer-policy", "no-referrer")
    .header("cache-control", "no-store")
    .header("x-content-type-options", "nosniff")
    .type("text/html; charset=utf-8")
    .send(html);
}

// What only these small pages add to the shared stylesheet: the inbox's mails, one under another.
const STYLE = `${PAGE_STYLE}article{border-top:1px solid var(--pb-color-border);padding:var(--pb-space-md) 0 0;margin-top:var(--pb-space-md)}
article h2{margin:0}${BRAND_STYLE}`;

/**
 * The whole document: head, the shared style, the merchant's header when the page is an app's (its
 * accent colour in the style), the body in a card, then the data block and script if any.
 */
export function layout(
  nonce: string,
  title: string,
  body: string,
  script?: { data?: unknown; code: string },
  brand: PageBrand | null = null,
): string {
  const data =
    script?.data === undefined
      ? ""
      : `<script type="application/json" id="data">${jsonForScript(script.data)}</script>\n`;
  const tail = script ? `${data}<script nonce="${nonce}">${script.code}</script>` : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title><style nonce="${nonce}">${STYLE}${brandCss(brand)}</style></head>
<body><main class="page">${brandHeader(brand)}<div class="card">${body}</div></main>${tail}</body></html>`;
}
