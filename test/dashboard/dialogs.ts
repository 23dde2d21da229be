import type { Locator, Page } from "playwright-core";
import { expectAccessible } from "../helpers/dashboard.ts";

/**
 * The open dialog (named `name`, or the only one), once it shows, after axe-core has checked the
 * page with it open: every create, edit and confirmation dialog is checked as the page is.
 */
export async function accessibleDialog(page: Page, name?: string | RegExp): Promise<Locator> {
  const dialog = name === undefined ? page.getByRole("dialog") : page.getByRole("dialog", { name });
  await dialog.waitFor();
  await expectAccessible(page);
  return dialog;
}
