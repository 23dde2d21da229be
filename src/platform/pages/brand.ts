import { escapeHtml } from "../http/html.ts";
import { designTokens } from "./design-tokens.ts";

/**
 * The merchant's face on a hosted page (checkout, auction, KYC widget, invitation): its name, its
 * icon and its accent colour, as plain values the page's module passes in (the apps module reads
 * them: src/modules/apps/for-pages.ts). Everything here is escaped or checked again, so a value
 * that got past the API's checks still cannot reach the markup or the stylesheet as code.
 */
export interface PageBrand {
  /** The app's display name, or its name. */
  name: string;
  /** The icon's same-origin path (`/apps/{id}/icon?v=3`), or null for none. */
  iconUrl: string | null;
  /** `#rrggbb`, or null for the service's own colours. */
  accentColor: string | null;
}

const HEX = /^#[0-9a-f]{6}$/i;
const WHITE = "#ffffff";
const DARK = designTokens.color.text;
/** WCAG 2's minimum contrast for text of normal size (1.4.3, level AA). */
export const MIN_TEXT_CONTRAST = 4.5;

type Rgb = [number, number, number];
const rgbOf = (hex: string): Rgb => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as Rgb;
const hexOf = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;

/** WCAG 2's relative luminance of an sRGB colour, 0 (black) to 1 (white). */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2's contrast ratio of two colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

/** `hex` moved `amount` (0 to 1) of the way to `toward`. */
const mix = (hex: string, toward: string, amount: number) => {
  const from = rgbOf(hex);
  const to = rgbOf(toward);
  return hexOf(from.map((c, i) => c + (to[i]! - c) * amount) as Rgb);
};

/**
 * The three colours a page takes from an accent: the button colour, its hover, and the text on
 * it. The text is white where white reads (≥ 4.5:1), else the pages' dark text colour where that
 * reads; a mid-tone on which neither does is darkened until white reads. The hover moves away from
 * the text colour, so it reads at least as well.
 */
export function accentColors(accent: string): {
  primary: string;
  hover: string;
  onPrimary: string;
  light: boolean;
} {
  let primary = accent.toLowerCase();
  if (contrastRatio(primary, WHITE) < MIN_TEXT_CONTRAST && contrastRatio(primary, DARK) < MIN_TEXT_CONTRAST) {
    for (let step = 1; step <= 20 && contrastRatio(primary, WHITE) < MIN_TEXT_CONTRAST; step++) {
      primary = mix(accent.toLowerCase(), "#000000", step * 0.05);
    }
  }
  const light = contrastRatio(primary, WHITE) < MIN_TEXT_CONTRAST;
  const onPrimary = light ? DARK : WHITE;
  return { primary, hover: mix(primary, light ? WHITE : "#000000", 0.15), onPrimary, light };
}

/**
 * The stylesheet that puts the accent on the page, appended after the shared one (same nonce or
 * hash): the primary colour custom properties, and, for a light accent (dark text on buttons), the
 * places that write in the primary colour on white (links, secondary buttons, the info pill) go
 * back to the text colour, which reads there. Empty for no accent, or for one that is not `#rrggbb`.
 */
export function brandCss(brand: PageBrand | null): string {
  const accent = brand?.accentColor;
  if (!accent || !HEX.test(accent)) return "";
  const { primary, hover, onPrimary, light } = accentColors(accent);
  const root = `:root{--pb-color-primary:${primary};--pb-color-primary-hover:${hover};--pb-color-on-primary:${onPrimary}}`;
  if (!light) return root;
  return `${root}a,a:hover,button.link,button.link:hover,button.secondary,a.button.secondary,button.secondary:hover,a.button.secondary:hover,.pill-info{color:var(--pb-color-text)}`;
}

/** The header's layout: the icon, then the name, above the page's first card. */
export const BRAND_STYLE =
  ".merchant{display:flex;align-items:center;gap:12px;margin:0 0 var(--pb-space-md);min-width:0}" +
  ".merchant img{flex:none;width:40px;height:40px;object-fit:contain;border-radius:var(--pb-radius-small);" +
  "background:var(--pb-color-surface)}" +
  ".merchant span{font-weight:600;font-size:var(--pb-font-size-large);line-height:1.3;min-width:0}";

/**
 * The merchant header: the icon (decorative beside the name, so `alt=""`) and the name, both
 * escaped. An icon URL that is not a same-origin path is left out rather than trusted.
 */
export function brandHeader(brand: PageBrand | null): string {
  if (!brand) return "";
  const icon =
    brand.iconUrl && /^\/[^/\\]/.test(brand.iconUrl)
      ? `<img src="${escapeHtml(brand.iconUrl)}" alt="" width="40" height="40">`
      : "";
  return `<header class="merchant" id="merchant">${icon}<span id="merchant-name">${escapeHtml(brand.name)}</span></header>`;
}
