import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_PROOF_NODES, treeCost } from "../../src/platform/chains/solana-trees.ts";
import { expectAccessible, expectNoConsoleErrors, useDashboard } from "../helpers/dashboard.ts";
import { choose, createWalletThroughUi, fitsViewport, openAppPage } from "./chain-ui.ts";
import { expectCard } from "./phone.ts";

// One block of 0.2 s is final: a created tree confirms within a couple of seconds.
const ui = useDashboard({
  SOLANA_TESTNET_CONFIRMATIONS: "1",
  SOLANA_TESTNET_BLOCK_SECONDS: "0.2",
});

const number = (value: number | bigint) => new Intl.NumberFormat("en-US").format(value);

test("an owner plans a tree (size, rent, capacity as the service computes them) and creates it", async () => {
  const { page, appId, errors } = ui.owner;
  await openAppPage(page, ui.dashboard.base, appId, "trees");
  await page.getByText("No Solana wallet yet").waitFor();
  await expectAccessible(page);

  await createWalletThroughUi(page, ui.dashboard.base, appId, "Mints", "Solana");
  await openAppPage(page, ui.dashboard.base, appId, "trees");
  await page.getByText("No trees yet").waitFor();

  // The default plan, then a canopy: the figures follow the service's own formulas.
  const plan = treeCost(14, 64, 0);
  await page.getByText(`${number(plan.space)} bytes`).waitFor();
  await page.getByText(number(plan.lamports), { exact: true }).waitFor();
  await page.getByText("16,384 NFTs").waitFor();
  await page.getByLabel("Canopy depth").fill("10");
  const withCanopy = treeCost(14, 64, 10);
  await page.getByText(`${number(withCanopy.space)} bytes`).waitFor();
  await expectAccessible(page);

  // Depth 30 needs a canopy deep enough for proofs to fit a transaction: too shallow is refused.
  await choose(page, "Maximum depth", "30");
  await page.getByLabel("Canopy depth").fill(String(30 - MAX_PROOF_NODES - 1));
  await page.getByText("This tree cannot be created").waitFor();
  assert.ok(await page.getByRole("button", { name: "Create tree" }).isDisabled());

  await choose(page, "Maximum depth", "14");
  await page.getByLabel("Canopy depth").fill("10");
  await page.getByRole("button", { name: "Create tree" }).click();
  const tree = page.getByRole("article").filter({ hasText: "Depth 14 · buffer 64 · canopy 10" });
  await tree.waitFor();
  await tree.getByText(`${number(withCanopy.space)} bytes`).waitFor();
  // The sandbox chain confirms it; the page follows without a reload.
  await tree.getByText("confirmed", { exact: true }).waitFor({ timeout: 30_000 });
  await expectAccessible(page);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expectCard(page, /^Tree /, ["Depth 14 · buffer 64 · canopy 10", "confirmed"]);
  assert.ok(await fitsViewport(page), "the trees page scrolls sideways at 390 px");
  await expectAccessible(page);
  expectNoConsoleErrors(errors);
});
