import assert from "node:assert/strict";
import { test } from "node:test";
import { placeBid, shopperSession } from "../helpers/auctions.ts";
import { expectAccessible, expectNoConsoleErrors, useDashboard } from "../helpers/dashboard.ts";
import { expectStatus } from "../helpers/http.ts";
import { fitsViewport, openAppPage } from "./chain-ui.ts";
import { expectCard } from "./phone.ts";

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
  await expectCard(page, "Auction Signed print", ["Signed print", "open", /\$12\.00/]);
  await card.getByRole("link", { name: "Signed print" }).click();
  // The bids are cards too: the bidder, the amount, the status and when.
  await expectCard(page, /^Bid /, ["bidder@example.com", "$12.00", "placed"]);
  assert.ok(await fitsViewport(page), "the auction page scrolls sideways at 390 px");
  await expectAccessible(page);
  expectNoConsoleErrors(errors);
});

test("an owner renames an auction, ends it early behind a confirmation, and deletes one nobody bid on", async () => {
  const { page, appId, errors } = ui.owner;
  await page.setViewportSize({ width: 1280, height: 900 });
  await openAppPage(page, ui.dashboard.base, appId, "auctions");
  await page.getByRole("article", { name: "Auction Signed print" }).getByRole("link").click();
  await page.getByRole("heading", { level: 1, name: "Signed print" }).waitFor();

  // With a bid, only the name can change, and there is nothing to delete.
  await page.getByRole("button", { name: "Edit auction" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Signed print" });
  assert.equal(await edit.getByLabel(/Starting amount/).count(), 0, "no amount once someone bid");
  await expectAccessible(page);
  await edit.getByLabel("Name").fill("Signed print, framed");
  await edit.getByRole("button", { name: "Save auction" }).click();
  await page.getByRole("heading", { level: 1, name: "Signed print, framed" }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Delete" }).count(), 0);

  // Ending names the auction and what happens to the standing bid; keeping it open does nothing.
  await page.getByRole("button", { name: "End now" }).click();
  const end = page.getByRole("dialog", { name: "End Signed print, framed now?" });
  await end.getByText("the standing bid of $12.00 wins").waitFor();
  await expectAccessible(page);
  await end.getByRole("button", { name: "Keep it open" }).click();
  await end.waitFor({ state: "hidden" });
  await page.getByText("open", { exact: true }).waitFor();
  await page.getByRole("button", { name: "End now" }).click();
  await end.getByRole("button", { name: "End auction" }).click();
  await page.getByText("ended", { exact: true }).waitFor();
  const row = page.getByRole("row").filter({ hasText: "bidder@example.com" });
  await row.getByText("won", { exact: true }).waitFor();
  assert.equal(await page.getByRole("button", { name: "End now" }).count(), 0, "ended once");

  // One nobody bid on: its amount can change, and it can be deleted.
  await openAppPage(page, ui.dashboard.base, appId, "auctions");
  await page.getByLabel("Auction name").fill("Unsold lamp");
  await page.getByLabel("Starting amount").fill("30");
  await page.getByRole("button", { name: "Create auction" }).click();
  await page.getByRole("heading", { level: 1, name: "Unsold lamp" }).waitFor();
  await page.getByRole("button", { name: "Edit auction" }).click();
  const lamp = page.getByRole("dialog", { name: "Edit Unsold lamp" });
  await lamp.getByLabel("Starting amount (USD)").fill("25");
  await lamp.getByRole("button", { name: "Save auction" }).click();
  await lamp.waitFor({ state: "hidden" });
  await page.getByText("$25.00").first().waitFor();
  await page.getByRole("button", { name: "Delete" }).click();
  const remove = page.getByRole("dialog", { name: "Delete Unsold lamp?" });
  await expectAccessible(page);
  await remove.getByRole("button", { name: "Delete auction" }).click();
  await page.getByRole("heading", { level: 1, name: "Auctions" }).waitFor();
  await page.getByRole("article", { name: "Auction Unsold lamp" }).waitFor({ state: "detached" });
  await page
    .getByRole("article", { name: "Auction Signed print, framed" })
    .getByText("ended", { exact: true })
    .waitFor();
  expectNoConsoleErrors(errors);
});
