import assert from "node:assert/strict";
import { test } from "node:test";
import { placeBid, shopperSession } from "../helpers/auctions.ts";
import { expectAccessible, expectNoConsoleErrors, useDashboard } from "../helpers/dashboard.ts";
import { expectStatus } from "../helpers/http.ts";
import { fitsViewport, openAppPage } from "./chain-ui.ts";

const ui = useDashboard();

test("an owner creates an auction and watches a shopper's bid arrive without reloading", async () => {
  const { page, appId, errors } = ui.owner;
  await openAppPage(page, ui.dashboard.base, appId, "auctions");
  await page.getByText("No auctions yet").waitFor();
  await expectAccessible(page);

  await page.getByLabel("Auction name").fill("Signed print");
  await page.getByLabel("Starting amount").fill("10");
  await page.getByRole("button", { name: "Create auction" }).click();

  // The auction's page: no bid yet, following the live stream.
  await page.getByRole("heading", { level: 1, name: "Signed print" }).waitFor();
  const auctionId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
  assert.match(auctionId, /^auc/);
  await page.getByText("No bids yet").waitFor();
  await page.getByRole("status").getByText("Live").waitFor();
  assert.equal(
    await page.getByRole("textbox", { name: "Public page" }).inputValue(),
    `${ui.dashboard.base}/a/${auctionId}`,
  );
  await expectAccessible(page);

  // A shopper bids through the public API; the row appears and turns `placed` once the hold lands.
  const shopper = await shopperSession(ui.dashboard.t, appId, auctionId, "bidder@example.com");
  expectStatus(await placeBid(ui.dashboard.t, shopper.token, appId, auctionId, 12), 202);
  const row = page.getByRole("row").filter({ hasText: "bidder@example.com" });
  await row.getByText("placed", { exact: true }).waitFor({ timeout: 20_000 });
  await row.getByText("$12.00").waitFor();
  await expectAccessible(page);

  await page.getByRole("link", { name: "All auctions" }).click();
  const card = page.getByRole("article", { name: "Auction Signed print" });
  await card.getByText("1 bid").waitFor();

  await page.setViewportSize({ width: 390, height: 844 });
  await card.getByRole("link", { name: "Signed print" }).click();
  await row.waitFor();
  assert.ok(await fitsViewport(page), "the auction page scrolls sideways at 390 px");
  await expectAccessible(page);
  expectNoConsoleErrors(errors);
});
