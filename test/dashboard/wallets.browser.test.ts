import assert from "node:assert/strict";
import { test } from "node:test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expectAccessible, expectNoConsoleErrors, useDashboard } from "../helpers/dashboard.ts";
import { choose, fitsViewport, openAppPage, withoutRefusals } from "./chain-ui.ts";
import { accessibleDialog } from "./dialogs.ts";
import { expectCard } from "./phone.ts";

const ui = useDashboard();

test("an owner creates a wallet with a generated key and imports one, each listed with its explorer link", async () => {
  const { page, appId, errors } = ui.owner;
  await openAppPage(page, ui.dashboard.base, appId, "wallets");
  await page.getByText("No wallets yet").waitFor();
  await expectAccessible(page);

  // Generated: the service makes the key, the page shows the address and a Sepolia link.
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("Treasury");
  await page.getByRole("button", { name: "Create wallet" }).click();
  const generated = page.getByRole("article", { name: "Wallet Treasury" });
  await generated.waitFor();
  const address = await generated.getByRole("textbox", { name: "Address", exact: true }).inputValue();
  assert.match(address, /^0x[0-9a-fA-F]{40}$/);
  assert.equal(
    await generated.getByRole("link", { name: "View Treasury in the explorer" }).getAttribute("href"),
    `https://sepolia.etherscan.io/address/${address}`,
  );
  await generated.getByText("generated").waitFor();

  // Imported: the address is the one the key controls.
  const key = generatePrivateKey();
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("Cold storage");
  await choose(page, "Chain", "EVM");
  await page.getByRole("radio", { name: "Import an existing key" }).check();
  await page.getByLabel("Private key (64 hex digits)").fill(key);
  await page.getByRole("button", { name: "Import wallet" }).click();
  const imported = page.getByRole("article", { name: "Wallet Cold storage" });
  await imported.waitFor();
  assert.equal(
    await imported.getByRole("textbox", { name: "Address", exact: true }).inputValue(),
    privateKeyToAccount(key).address,
  );
  await imported.getByText("imported").waitFor();
  // The key never comes back to the page.
  assert.ok(!(await page.content()).includes(key.slice(2)));

  // A refused key: the service's problem names the field.
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("Broken");
  await page.getByLabel("Private key (64 hex digits)").fill("not-a-key");
  await page.getByRole("button", { name: "Import wallet" }).click();
  await page.getByRole("alert").getByText("private key:").waitFor();

  // Solana: a generated key, listed with its devnet explorer page.
  await page.getByRole("radio", { name: "Generate a new key (kept encrypted by the service)" }).check();
  await page.getByRole("textbox", { name: "Name", exact: true }).fill("Mints");
  await choose(page, "Chain", "Solana");
  await page.getByRole("button", { name: "Create wallet" }).click();
  const solana = page.getByRole("article", { name: "Wallet Mints" });
  await solana.waitFor();
  const solanaAddress = await solana.getByRole("textbox", { name: "Address", exact: true }).inputValue();
  assert.equal(
    await solana.getByRole("link", { name: "View Mints in the explorer" }).getAttribute("href"),
    `https://explorer.solana.com/address/${solanaAddress}?cluster=devnet`,
  );
  await expectAccessible(page);

  // Deleting asks first, then the wallet is gone from the list.
  await imported.getByRole("button", { name: "Delete" }).click();
  await (await accessibleDialog(page)).getByRole("button", { name: "Delete" }).click();
  await imported.waitFor({ state: "detached" });

  // At 390 px: the same list, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expectCard(page, "Wallet Treasury", ["Treasury", "generated"]);
  assert.ok(await fitsViewport(page), "the wallets page scrolls sideways at 390 px");
  await expectAccessible(page);
  // The refused key was the one request answered 400.
  expectNoConsoleErrors(withoutRefusals(errors, 400, 1));
});
