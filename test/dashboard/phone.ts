import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";

/** Whether the page scrolls sideways, once its layout has settled (a resize takes a few frames). */
export async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  let widths = "";
  for (let tries = 0; tries < 20; tries++) {
    // A string, evaluated in the page: the tests are type-checked without the DOM library.
    widths = await page.evaluate<string>('document.scrollingElement.scrollWidth + " " + innerWidth');
    const [scroll, inner] = widths.split(" ").map(Number);
    if (scroll <= inner) return;
    await page.waitForTimeout(100);
  }
  assert.fail(`${what} scrolls sideways (scroll width and window width: ${widths})`);
}

/**
 * On a phone, the record named `name` is a card (an `article`, not a table row) showing each of
 * `shows` (its id or name, amount, status…) and a date, and the page does not scroll sideways.
 */
export async function expectCard(
  page: Page,
  name: string | RegExp,
  shows: (string | RegExp)[],
): Promise<Locator> {
  const card = page.getByRole("article", { name }).first();
  await card.waitFor();
  for (const text of shows) {
    const shown = card.getByText(text).first();
    await shown.waitFor();
    assert.ok(await shown.isVisible(), `the card ${String(name)} shows ${String(text)}`);
  }
  assert.ok(await card.locator("time").first().isVisible(), `the card ${String(name)} shows a date`);
  await expectNoSidewaysScroll(page, `the page of ${String(name)}`);
  return card;
}
