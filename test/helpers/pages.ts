import type { Browser, Page } from "playwright-core";

/** The widths every hosted page is checked at: a phone (iPhone 12 to 15) and a desktop. */
export const WIDTHS = [390, 1280] as const;

/**
 * A fresh browser context at `width` (and a phone's or a laptop's height), in `timeZone`, with
 * script errors and CSP reports collected.
 */
export async function openAt(browser: Browser, url: string, width: number, timeZone = "UTC") {
  const context = await browser.newContext({
    viewport: { width, height: width < 600 ? 844 : 900 },
    locale: "en-US",
    timezoneId: timeZone,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  const response = await page.goto(url);
  return { context, page, errors, response };
}

type Doc = {
  getElementById(id: string): { textContent: string | null } | null;
  documentElement: { scrollWidth: number };
};
/** Nothing is wider than the window: no sideways scrolling. */
export const fitsWidth = (page: Page) =>
  page.evaluate(
    () =>
      (globalThis as unknown as { document: Doc }).document.documentElement.scrollWidth <=
      (globalThis as unknown as { innerWidth: number }).innerWidth,
  );

/** Waits (without reloading) until the element's text is `text`; a function, as the CSP forbids eval. */
export const textIs = (page: Page, id: string, text: string, timeout = 45_000) =>
  page.waitForFunction(
    ([elementId, expected]) =>
      (globalThis as unknown as { document: Doc }).document.getElementById(elementId)?.textContent ===
      expected,
    [id, text],
    { timeout },
  );

/** The focused element's id and outline, as the keyboard user sees it. */
export const focused = (page: Page) =>
  page.evaluate(() => {
    const g = globalThis as unknown as {
      document: { activeElement: { id: string } | null };
      getComputedStyle(element: unknown): { outlineStyle: string; outlineWidth: string };
    };
    const element = g.document.activeElement;
    const style = g.getComputedStyle(element);
    return { id: element?.id ?? "", outline: `${style.outlineStyle} ${style.outlineWidth}` };
  });
