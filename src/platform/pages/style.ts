import { createHash } from "node:crypto";
import { tokensCss } from "./design-tokens.ts";

/**
 * The one stylesheet every hosted page starts from (checkout, auction, KYC widget, invitation,
 * sandbox inbox): the design tokens as custom properties, then base elements, then the few
 * components the pages share. A page appends only its own layout rules.
 *
 * It is sent inline, under the page's policy: with the response's nonce where the page has one,
 * by its sha256 hash where it does not (the KYC widget). No `'self'` and no `'unsafe-inline'` in
 * `style-src`, and nothing to fetch before the first paint.
 *
 * Colours come only from the tokens, so their contrast is checked once, on the token values
 * (test/platform/design-tokens.test.ts): body and muted text, button text on the primary colour,
 * each status colour on its own surface, at least 4.5:1; control borders and the focus ring
 * (`muted`, `focus`) at least 3:1 against the page.
 *
 * Components, by class:
 * - `.card`: a white panel; `.page` centres the content at a readable width.
 * - fields: `label` above its control; `.help` under it; `.field-error` and `[aria-invalid]`;
 *   `.row` puts two fields side by side, stacked again on narrow screens.
 * - `button` and `a.button` (primary), `.secondary`, `button.link`.
 * - `.pill` with `.pill-success|warning|danger|info|neutral`: a status badge.
 * - `.alert` with `.alert-success|warning|danger|info`; the live status line (`#message`) takes
 *   `.ok`, `.error`, `.pending` and `.info`, the classes the pages' scripts already set.
 */
const BASE = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--pb-color-surface-alt);color:var(--pb-color-text);font-family:var(--pb-font-family);
font-size:var(--pb-font-size-base);line-height:var(--pb-font-line-height);overflow-wrap:anywhere}
.page{max-width:40rem;margin:0 auto;padding:var(--pb-space-lg) var(--pb-space-md) var(--pb-space-xl)}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 var(--pb-space-sm)}
h2{font-size:var(--pb-font-size-large);line-height:1.3;margin:var(--pb-space-lg) 0 var(--pb-space-sm)}
h2:first-child{margin-top:0}
p{margin:0 0 var(--pb-space-md)}
a{color:var(--pb-color-primary)}a:hover{color:var(--pb-color-primary-hover)}
small,.muted{color:var(--pb-color-muted);font-size:var(--pb-font-size-small)}
code,pre{font-family:var(--pb-font-mono);font-size:.9em}
pre{white-space:pre-wrap;word-break:break-all;background:var(--pb-color-surface-alt);padding:var(--pb-space-md);
border-radius:var(--pb-radius-medium);margin:0 0 var(--pb-space-md)}
[hidden]{display:none!important}
:focus-visible{outline:3px solid var(--pb-color-focus);outline-offset:2px}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);border:0}
.card{background:var(--pb-color-surface);border:1px solid var(--pb-color-border);border-radius:var(--pb-radius-large);
padding:var(--pb-space-lg);margin:0 0 var(--pb-space-md)}
.card>:first-child{margin-top:0}.card>:last-child{margin-bottom:0}
@media (max-width:480px){.page{padding:var(--pb-space-md) var(--pb-space-sm) var(--pb-space-lg)}
.card{padding:var(--pb-space-md)}}
`;

const FIELDS = `
fieldset{border:0;margin:0 0 var(--pb-space-md);padding:0;min-width:0}
legend{font-weight:600;font-size:var(--pb-font-size-large);padding:0;margin:0 0 var(--pb-space-sm)}
label{display:block;font-weight:600;margin:var(--pb-space-md) 0 var(--pb-space-xs)}
legend+label,form>label:first-child,.card>label:first-child{margin-top:0}
input,select,textarea{display:block;width:100%;min-height:44px;margin:0;padding:var(--pb-space-sm) 12px;font:inherit;
color:var(--pb-color-text);background:var(--pb-color-surface);border:1px solid var(--pb-color-muted);
border-radius:var(--pb-radius-medium)}
textarea{font-family:var(--pb-font-mono);min-height:5rem}
input[type=checkbox],input[type=radio]{display:inline-block;width:20px;min-height:20px;height:20px;margin:0;
accent-color:var(--pb-color-primary);vertical-align:middle}
label.check{display:flex;gap:var(--pb-space-sm);align-items:flex-start;font-weight:400}
label.check input{flex:none;margin-top:2px}
input[type=file]{padding:6px}
input::placeholder{color:var(--pb-color-muted);opacity:1}
input:disabled,select:disabled,textarea:disabled{background:var(--pb-color-surface-alt)}
.help{display:block;color:var(--pb-color-muted);font-size:var(--pb-font-size-small);font-weight:400;margin:0 0 var(--pb-space-xs)}
.field-error{color:var(--pb-color-danger);font-size:var(--pb-font-size-small);margin:var(--pb-space-xs) 0 0}
[aria-invalid="true"]{border-color:var(--pb-color-danger);border-width:2px}
.row{display:flex;gap:var(--pb-space-md)}.row>*{flex:1;min-width:0}
@media (max-width:360px){.row{flex-direction:column;gap:0}}
`;

const BUTTONS = `
button,a.button{display:inline-flex;align-items:center;justify-content:center;gap:var(--pb-space-sm);min-height:44px;
margin:var(--pb-space-md) 0 0;padding:var(--pb-space-sm) 20px;font:inherit;font-weight:600;text-decoration:none;
color:var(--pb-color-on-primary);background:var(--pb-color-primary);border:1px solid var(--pb-color-primary);
border-radius:var(--pb-radius-medium);cursor:pointer}
button:hover,a.button:hover{background:var(--pb-color-primary-hover);border-color:var(--pb-color-primary-hover);
color:var(--pb-color-on-primary)}
button:disabled{opacity:.55;cursor:not-allowed}
button.block{display:flex;width:100%}
button.secondary,a.button.secondary{color:var(--pb-color-primary);background:var(--pb-color-surface);border-color:var(--pb-color-muted)}
button.secondary:hover,a.button.secondary:hover{background:var(--pb-color-surface-alt);color:var(--pb-color-primary-hover)}
button.link{min-height:0;margin:0;padding:0;border:0;background:none;color:var(--pb-color-primary);font-weight:400;
text-decoration:underline}
button.link:hover{background:none;color:var(--pb-color-primary-hover)}
`;

const STATUS = `
.pill{display:inline-flex;align-items:center;gap:var(--pb-space-xs);padding:2px 10px;border-radius:999px;
font-size:var(--pb-font-size-small);font-weight:600;line-height:1.6;white-space:nowrap;border:1px solid transparent}
.pill-success{color:var(--pb-color-success);background:var(--pb-color-success-surface)}
.pill-warning{color:var(--pb-color-warning);background:var(--pb-color-warning-surface)}
.pill-danger{color:var(--pb-color-danger);background:var(--pb-color-danger-surface)}
.pill-info{color:var(--pb-color-primary);background:var(--pb-color-surface-alt);border-color:var(--pb-color-border)}
.pill-neutral{color:var(--pb-color-muted);background:var(--pb-color-surface-alt);border-color:var(--pb-color-border)}
.alert,#message.ok,#message.error,#message.pending,#message.info{display:block;padding:12px var(--pb-space-md);margin:var(--pb-space-md) 0;
border-radius:var(--pb-radius-medium);border-left:4px solid currentColor}
.alert-success,#message.ok{color:var(--pb-color-success);background:var(--pb-color-success-surface)}
.alert-warning,#message.pending{color:var(--pb-color-warning);background:var(--pb-color-warning-surface)}
.alert-danger,#message.error,.errors{color:var(--pb-color-danger)}.ok{color:var(--pb-color-success)}
ul.alert{padding-left:2.25rem}
.alert-danger,#message.error{background:var(--pb-color-danger-surface)}
.alert-info,#message.info{color:var(--pb-color-text);background:var(--pb-color-surface-alt);border-left-color:var(--pb-color-primary)}
.alert>:last-child{margin-bottom:0}
#message:empty{display:none}
`;

/** The shared stylesheet: tokens, base elements, fields, buttons, status pills and alerts. */
export const PAGE_STYLE = `${tokensCss()}${BASE}${FIELDS}${BUTTONS}${STATUS}`.replace(/\n/g, "");

/** The `style-src` source that allows exactly this stylesheet, for pages without a nonce. */
export function styleHashSource(css: string): string {
  return `'sha256-${createHash("sha256").update(css).digest("base64")}'`;
}
