import assert from "node:assert/strict";
import { test } from "node:test";
import { encodeFunctionData } from "viem";
import { expectAccessible, expectNoConsoleErrors, useDashboard } from "../helpers/dashboard.ts";
import { EVM_ABI } from "../helpers/triggers.ts";
import { choose, createWalletThroughUi, fitsViewport, openAppPage, withoutRefusals } from "./chain-ui.ts";
import { accessibleDialog } from "./dialogs.ts";
import { expectCard } from "./phone.ts";

const ui = useDashboard();

const CONTRACT = "0x5fbdb2315678afecb367f032d93f642f64180aa3";
const RECEIVER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

test("an owner builds an EVM trigger with parameters and sees the exact call it renders, live", async () => {
  const { page, appId, errors } = ui.owner;
  await createWalletThroughUi(page, ui.dashboard.base, appId, "Minter", "EVM");
  await openAppPage(page, ui.dashboard.base, appId, "triggers");
  await page.getByText("No triggers yet").waitFor();
  await expectAccessible(page);

  await page.getByRole("link", { name: "New trigger" }).click();
  await page.getByLabel("Trigger name").fill("Mint tokens");
  await choose(page, "Wallet", "Minter (EVM)");
  await page.getByLabel("Contract address").fill(CONTRACT);
  await page.getByLabel("Function name").fill("mintTo");
  await page.getByLabel("Contract ABI (JSON)").fill(EVM_ABI);
  await page
    .getByLabel("Arguments (JSON object)")
    .fill(JSON.stringify({ to: "{{receiver}}", amount: "{{quantity}}", memo: "order" }));
  await page.getByRole("button", { name: "Add parameter" }).click();
  await page.getByLabel("Parameter 1 name").fill("receiver");
  await choose(page, "Parameter 1 format", "An Ethereum address");
  await page.getByRole("button", { name: "Add parameter" }).click();
  await page.getByLabel("Parameter 2 name").fill("quantity");
  await choose(page, "Parameter 2 type", "number");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Create trigger" }).click();

  // The trigger's page: the builder beside the preview of its call.
  await page.getByRole("heading", { level: 1, name: "Mint tokens" }).waitFor();
  await page.getByLabel("Parameter values (JSON)").fill(JSON.stringify({ receiver: RECEIVER, quantity: 3 }));
  const expected = encodeFunctionData({
    abi: JSON.parse(EVM_ABI),
    functionName: "mintTo",
    args: [RECEIVER, 3n, "order"],
  });
  const rendered = page.getByTestId("rendered-call");
  await rendered.getByText(expected).waitFor();
  assert.match(await rendered.innerText(), /"function_name": "mintTo"/);
  await expectAccessible(page);

  // A value the descriptors refuse: the service's problem names the parameter (by name, not path).
  await page.getByLabel("Parameter values (JSON)").fill(JSON.stringify({ receiver: "nobody", quantity: 3 }));
  await page.getByRole("alert").getByText("receiver:").waitFor();

  // Editing the call re-renders it: a new memo changes the calldata.
  await page.getByLabel("Parameter values (JSON)").fill(JSON.stringify({ receiver: RECEIVER, quantity: 3 }));
  await rendered.getByText(expected).waitFor();
  await page
    .getByLabel("Arguments (JSON object)")
    .fill(JSON.stringify({ to: "{{receiver}}", amount: "{{quantity}}", memo: "gift" }));
  await page.getByRole("button", { name: "Save trigger" }).click();
  const edited = encodeFunctionData({
    abi: JSON.parse(EVM_ABI),
    functionName: "mintTo",
    args: [RECEIVER, 3n, "gift"],
  });
  await rendered.getByText(edited).waitFor();
  // Deleting asks first; kept here, the wallet's turn is next.
  await page.getByRole("button", { name: "Delete trigger" }).click();
  const remove = await accessibleDialog(page, "Delete trigger Mint tokens?");
  await remove.getByRole("button", { name: "Cancel" }).click();
  await remove.waitFor({ state: "hidden" });

  // The trigger's wallet cannot go while the trigger uses it: the dialog says why and stays open.
  await openAppPage(page, ui.dashboard.base, appId, "wallets");
  await page.getByRole("article", { name: "Wallet Minter" }).getByRole("button", { name: "Delete" }).click();
  const dialog = await accessibleDialog(page);
  await dialog.getByRole("button", { name: "Delete" }).click();
  await dialog.getByRole("alert").getByText("The wallet is used by 1 trigger(s)").waitFor();
  await expectAccessible(page);
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // Listed, and usable at 390 px.
  await openAppPage(page, ui.dashboard.base, appId, "triggers");
  await page
    .getByRole("article", { name: "Trigger Mint tokens" })
    .getByText(`mintTo on ${CONTRACT}`)
    .waitFor();
  await expectAccessible(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectCard(page, "Trigger Mint tokens", ["Mint tokens", `mintTo on ${CONTRACT}`, "EVM"]);
  await page.getByRole("link", { name: "Mint tokens" }).click();
  await page.getByRole("heading", { level: 1, name: "Mint tokens" }).waitFor();
  assert.ok(await fitsViewport(page), "the trigger page scrolls sideways at 390 px");
  await expectAccessible(page);
  // The refused input and the refused deletion were the requests answered 400 and 409.
  expectNoConsoleErrors(withoutRefusals(withoutRefusals(errors, 400, 1), 409, 1));
});
