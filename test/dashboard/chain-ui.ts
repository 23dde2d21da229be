import assert from "node:assert/strict";
import type { Page } from "playwright-core";

/**
 * Steps the chain pages' browser tests share (wallets, triggers, sellers, auctions, trees): they
 * drive the dashboard as an owner does, through labelled fields and visible buttons only.
 */

/** Opens an app page by its path under `/dashboard/apps/:appId/`. */
export async function openAppPage(page: Page, base: string, appId: string, path: string) {
  await page.goto(`${base}/dashboard/apps/${appId}/${path}`);
  await page.getByRole("heading", { level: 1 }).waitFor();
}

/** Picks an option of a labelled select (Mantine's combobox): open it, click the option. */
export async function choose(page: Page, label: string, option: string) {
  await page.getByRole("textbox", { name: label, exact: true }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

/** Creates a wallet with a generated key on the wallets page; answers its address. */
export async function createWalletThroughUi(
  page: Page,
  base: string,
  appId: string,
  name: string,
  chain: "EVM" | "Solana" | "NEAR",
): Promise<string> {
  await openAppPage(page, base, appId, "wallets");
  await page.getByRole("textbox", { name: "Name", exact: true }).fill(name);
  await choose(page, "Chain", chain);
  await page.getByRole("button", { name: "Create wallet" }).click();
  const card = page.getByRole("article", { name: `Wallet ${name}` });
  await card.waitFor();
  return card.getByRole("textbox", { name: "Address", exact: true }).inputValue();
}

/** True when nothing on the page is wider than the viewport (no sideways scrolling at 390 px). */
export async function fitsViewport(page: Page): Promise<boolean> {
  type Window = { innerWidth: number; document: { documentElement: { scrollWidth: number } } };
  return page.evaluate(() => {
    const view = globalThis as unknown as Window;
    return view.document.documentElement.scrollWidth <= view.innerWidth;
  });
}

/**
 * The console errors left once the browser's own line for each request the test made fail on
 * purpose is taken out: exactly `count` such lines (answers with `status`), no other error.
 */
export function withoutRefusals(errors: string[], status: number, count: number): string[] {
  const note = `the server responded with a status of ${status}`;
  assert.equal(errors.filter((error) => error.includes(note)).length, count, `refused requests: ${errors}`);
  return errors.filter((error) => !error.includes(note));
}
