/**
 * The visual language the dashboard and every hosted page (checkout, auction, KYC widget,
 * invitation, sandbox inbox) share: one set of values, read by the pages' stylesheet as CSS custom
 * properties and by the dashboard's component theme, so a shopper who moves from a seller's
 * console to its checkout sees one product.
 *
 * Plain data only (no imports): the dashboard's build imports this file as it is.
 */
export const designTokens = Object.freeze({
  color: Object.freeze({
    primary: "#3a4ee0",
    primaryHover: "#2c3dbf",
    onPrimary: "#ffffff",
    text: "#1d2330",
    muted: "#5a6070",
    border: "#d5d9e2",
    surface: "#ffffff",
    surfaceAlt: "#f2f4f8",
    success: "#0a7a2f",
    successSurface: "#e6f4ea",
    warning: "#8a5a00",
    warningSurface: "#fdf3dc",
    danger: "#a3202a",
    dangerSurface: "#fbe9ea",
    focus: "#1f6feb",
  }),
  font: Object.freeze({
    family: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    mono: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
    sizeBase: "16px",
    sizeSmall: "14px",
    sizeLarge: "20px",
    lineHeight: "1.5",
  }),
  radius: Object.freeze({ small: "6px", medium: "8px", large: "12px" }),
  space: Object.freeze({ xs: "4px", sm: "8px", md: "16px", lg: "24px", xl: "32px" }),
});

export type DesignTokens = typeof designTokens;

/** `camelCase` -> `kebab-case`, for the custom property names. */
const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** The tokens as CSS custom properties on `:root` (`--pb-color-primary`, `--pb-space-md`, …). */
export function tokensCss(tokens: DesignTokens = designTokens): string {
  const lines: string[] = [];
  for (const [group, values] of Object.entries(tokens)) {
    for (const [name, value] of Object.entries(values as Record<string, string>)) {
      lines.push(`--pb-${group}-${kebab(name)}:${value}`);
    }
  }
  return `:root{${lines.join(";")}}`;
}
