// The hosted pages' colours come only from the design tokens, so their contrast is checked here, on
// the token values (WCAG 2.2: 4.5:1 for text, 3:1 for control borders and the focus ring).
import assert from "node:assert/strict";
import { test } from "node:test";
import { designTokens, tokensCss } from "../../src/platform/pages/design-tokens.ts";
import { PAGE_STYLE } from "../../src/platform/pages/style.ts";

/** WCAG relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

const c = designTokens.color;

test("text, button labels and status colours read at 4.5:1 or more on their backgrounds", () => {
  const pairs: [string, string, string][] = [
    ["text on surface", c.text, c.surface],
    ["text on the page background", c.text, c.surfaceAlt],
    ["muted text on surface", c.muted, c.surface],
    ["muted text on the page background", c.muted, c.surfaceAlt],
    ["links on surface", c.primary, c.surface],
    ["links (hover) on surface", c.primaryHover, c.surface],
    ["links on the page background", c.primary, c.surfaceAlt],
    ["button label on primary", c.onPrimary, c.primary],
    ["button label on primary (hover)", c.onPrimary, c.primaryHover],
    ["success on its surface", c.success, c.successSurface],
    ["warning on its surface", c.warning, c.warningSurface],
    ["danger on its surface", c.danger, c.dangerSurface],
    ["danger (field errors) on surface", c.danger, c.surface],
  ];
  for (const [what, foreground, background] of pairs) {
    const ratio = contrast(foreground, background);
    assert.ok(ratio >= 4.5, `${what}: ${ratio.toFixed(2)}:1`);
  }
});

test("control borders and the focus ring stand out at 3:1 or more", () => {
  for (const background of [c.surface, c.surfaceAlt]) {
    assert.ok(contrast(c.muted, background) >= 3, "input borders");
    assert.ok(contrast(c.focus, background) >= 3, "focus ring");
  }
});

test("the pages' stylesheet takes every colour from a token, and every token it names exists", () => {
  const tokens = tokensCss();
  assert.ok(PAGE_STYLE.startsWith(tokens));
  const rules = PAGE_STYLE.slice(tokens.length);
  assert.doesNotMatch(rules, /#[0-9a-fA-F]{3,8}\b|rgb\(|hsl\(/, "no colour literal outside the tokens");
  const defined = new Set([...tokens.matchAll(/(--pb-[a-z-]+):/g)].map((m) => m[1]));
  for (const [, name] of rules.matchAll(/var\((--pb-[a-z-]+)\)/g)) {
    assert.ok(defined.has(name), `${name} is a token`);
  }
});
