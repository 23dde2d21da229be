// The merchant's accent on a hosted page: every colour an app may choose gets button text that reads.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  accentColors,
  brandCss,
  brandHeader,
  contrastRatio,
  MIN_TEXT_CONTRAST,
} from "../../src/platform/pages/brand.ts";
import { designTokens } from "../../src/platform/pages/design-tokens.ts";

/** Colours across the whole cube, 17 steps a channel (4,913 of them). */
function* colours() {
  for (let r = 0; r <= 255; r += 15)
    for (let g = 0; g <= 255; g += 15)
      for (let b = 0; b <= 255; b += 15)
        yield `#${[r, g, b].map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}

test("contrast ratios are WCAG 2's", () => {
  assert.equal(contrastRatio("#ffffff", "#000000"), 21);
  assert.equal(contrastRatio("#777777", "#777777"), 1);
  assert.equal(Math.round(contrastRatio("#767676", "#ffffff") * 100) / 100, 4.54);
});

test("every accent gets text that reads on it and on its hover; links stay readable on white", () => {
  for (const accent of colours()) {
    const { primary, hover, onPrimary, light } = accentColors(accent);
    assert.ok([designTokens.color.text, "#ffffff"].includes(onPrimary), accent);
    assert.ok(
      contrastRatio(primary, onPrimary) >= MIN_TEXT_CONTRAST,
      `${accent}: ${primary} on ${onPrimary}`,
    );
    assert.ok(contrastRatio(hover, onPrimary) >= MIN_TEXT_CONTRAST, `${accent}: hover ${hover}`);
    // White text on it is the same ratio as it as text on white: links in it read on the page.
    if (!light) assert.ok(contrastRatio(primary, "#ffffff") >= MIN_TEXT_CONTRAST, accent);
    const readable =
      contrastRatio(accent, "#ffffff") >= MIN_TEXT_CONTRAST ||
      contrastRatio(accent, designTokens.color.text) >= MIN_TEXT_CONTRAST;
    if (readable) assert.equal(primary, accent, "a colour that reads is kept as the merchant chose it");
  }
  assert.equal(accentColors("#0B7A75").onPrimary, "#ffffff");
  assert.equal(accentColors("#ffd700").onPrimary, designTokens.color.text);
});

test("the stylesheet takes only a #rrggbb colour; the header escapes the name and takes only a same-origin icon", () => {
  const brand = { name: "A", iconUrl: null, accentColor: null };
  assert.equal(brandCss(null), "");
  assert.equal(brandCss(brand), "");
  for (const bad of ["red", "#fff", "#0b7a75;}*{x:y", "url(x)", "#0b7a7"]) {
    assert.equal(brandCss({ ...brand, accentColor: bad }), "", bad);
  }
  assert.match(brandCss({ ...brand, accentColor: "#0b7a75" }), /^:root\{--pb-color-primary:#0b7a75;/);
  assert.equal(brandHeader(null), "");
  assert.equal(
    brandHeader({ name: `<b>"x"</b>`, iconUrl: '/apps/a/icon?v=1"><script>', accentColor: null }),
    '<header class="merchant" id="merchant"><img src="/apps/a/icon?v=1&quot;&gt;&lt;script&gt;" alt="" width="40" height="40"><span id="merchant-name">&lt;b&gt;&quot;x&quot;&lt;/b&gt;</span></header>',
  );
  for (const elsewhere of [
    "https://evil.example/x.png",
    "//evil.example/x.png",
    "javascript:alert(1)",
    "/\\evil",
  ]) {
    assert.doesNotMatch(brandHeader({ name: "A", iconUrl: elsewhere, accentColor: null }), /<img/, elsewhere);
  }
});
