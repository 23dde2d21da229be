import assert from "node:assert/strict";
import { test } from "node:test";
import { expectAccessible, expectNoConsoleErrors, useDashboard } from "../helpers/dashboard.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { Receiver, verifyStandardWebhook } from "../helpers/webhooks.ts";
import { accessibleDialog } from "./dialogs.ts";
import {
  choose,
  createPrice,
  fitsWidth,
  openPayment,
  payWith4242,
  sessionToken,
} from "./payments-fixtures.ts";
import { expectCard } from "./phone.ts";

// Webhooks in the console: an owner adds an endpoint through the form and copies its secret, a
// payment paid with the 4242 card is delivered to it (signed with that secret), and the delivery
// log shows what was sent and what the receiver answered; a delivery is replayed, the secret
// rotated, a test event sent, the endpoint edited, disabled and enabled again, and deleted, each
// through the page.
let token: string;
const receiver = new Receiver();

// The receiver listens on this machine's loopback, which production refuses (SSRF).
const ui = useDashboard(
  { WEBHOOKS_ALLOW_LOOPBACK: "true" },
  {
    async setUp() {
      token = await sessionToken(ui.owner.page);
      receiver.responseBody = "thanks";
      await receiver.start();
    },
    async tearDown() {
      await receiver.stop();
    },
  },
);

test("an owner adds an endpoint, copies its secret, and reads the signed deliveries of a payment", async () => {
  const { page, appId } = ui.owner;
  const { t } = ui.dashboard;
  await page.goto(`/dashboard/apps/${appId}/webhooks`);
  await page.getByRole("heading", { level: 1, name: "Webhooks" }).waitFor();
  await page.getByText("No webhook endpoints yet").waitFor();
  await expectAccessible(page);

  await page.getByLabel("Endpoint URL").fill(receiver.url);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const secret = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
  assert.match(secret, /^whsec_/);
  await page.getByRole("link", { name: receiver.url }).waitFor();
  await expectAccessible(page);
  await page.getByRole("button", { name: "I have copied it" }).click();
  await page.getByRole("textbox", { name: "Signing secret" }).waitFor({ state: "detached" });
  // On a phone each endpoint is a card: its URL, events and creation date.
  await page.setViewportSize({ width: 390, height: 844 });
  await expectCard(page, `Endpoint ${receiver.url}`, [receiver.url, "Events"]);
  assert.equal(await page.locator("main table").count(), 0, "cards, not a table");
  await expectAccessible(page);
  await page.setViewportSize({ width: 1280, height: 900 });

  const price = await createPrice(t, token, appId, { name: "Concert ticket" });
  const payment = await openPayment(t, token, appId, { price_id: price.id });
  await payWith4242(t, token, appId, payment.id);

  await page.getByRole("link", { name: receiver.url }).click();
  await page.getByRole("heading", { level: 1, name: "Webhook endpoint" }).waitFor();
  // The log reads itself again while deliveries are under way: no reload needed.
  const paid = page.getByRole("button", { name: /succeeded\s*payment\.paid/ });
  await paid.waitFor({ timeout: 20_000 });
  await paid.click();
  const panel = page.getByRole("region", { name: /payment\.paid/ });
  await panel.getByText(`POST ${receiver.url}`, { exact: false }).waitFor();
  await panel.getByText("200", { exact: true }).waitFor();
  await panel.getByText("thanks", { exact: true }).waitFor();
  await expectAccessible(page);

  const delivered = receiver.received.find((hit) => JSON.parse(hit.body).type === "payment.paid");
  assert.ok(delivered, "the receiver got payment.paid");
  assert.ok(
    verifyStandardWebhook(secret, delivered.headers, delivered.body),
    "signed with the copied secret",
  );
  const webhookId = String(delivered.headers["webhook-id"]);
  await panel.getByText(`webhook-id: ${webhookId}`, { exact: false }).waitFor();
  // The body the receiver got, as it got it (indented to read).
  const request = await panel.locator("pre").first().innerText();
  assert.ok(
    request.includes(JSON.stringify(JSON.parse(delivered.body), null, 2)),
    `the request body as sent: ${request}`,
  );
  await panel.getByText("Response body (its first 256 characters are kept)").waitFor();

  // The log filtered by event type and status, in the address: kept on reload.
  await choose(page, "Event type", "payment.paid");
  await page.waitForURL(/[?&]type=payment\.paid\b/);
  await page.getByRole("button", { name: /payment\.pending/ }).waitFor({ state: "detached" });
  await paid.waitFor();
  await choose(page, "Status", "failed");
  await page.getByText("No delivery matches these filters").waitFor();
  await page.reload();
  await page.getByText("No delivery matches these filters").waitFor();
  assert.equal(await page.getByRole("textbox", { name: "Status", exact: true }).inputValue(), "failed");
  await expectAccessible(page);
  await choose(page, "Status", "Any status");
  await choose(page, "Event type", "Any event");
  await page
    .getByRole("button", { name: /payment\.pending/ })
    .first()
    .waitFor();
  assert.doesNotMatch(page.url(), /type=|status=/);
  await paid.click();
  await panel.getByText(`webhook-id: ${webhookId}`, { exact: false }).waitFor();
  expectNoConsoleErrors(ui.owner.errors);
});

test("a delivery is replayed, the secret rotated, a test event sent, the endpoint edited, disabled, enabled again and deleted through the page", async () => {
  const { page, appId } = ui.owner;
  const { t } = ui.dashboard;
  const before = receiver.received.filter((hit) => JSON.parse(hit.body).type === "payment.paid").length;
  const panel = page.getByRole("region", { name: /payment\.paid/ });
  await panel.getByRole("button", { name: "Replay" }).click();
  await page.getByText("payment.paid sent again").waitFor();
  await page.getByText("(replay)").waitFor({ timeout: 20_000 });
  const replayed = () =>
    receiver.received.filter((hit) => JSON.parse(hit.body).type === "payment.paid").length;
  for (let i = 0; i < 100 && replayed() === before; i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(replayed(), before + 1, "the receiver got the event again");

  await page.getByRole("button", { name: "Rotate secret" }).click();
  await (await accessibleDialog(page, "Make a new signing secret?"))
    .getByRole("button", { name: "Rotate secret" })
    .click();
  const rotated = await page.getByRole("textbox", { name: "Signing secret" }).inputValue();
  assert.match(rotated, /^whsec_/);
  await expectAccessible(page);

  // A test event goes to the endpoint through the normal delivery, signed with the new secret,
  // and shows in the log without a reload.
  await page.getByRole("button", { name: "Send test event" }).click();
  await page.getByText("Test event sent").waitFor();
  await page.getByRole("button", { name: /succeeded\s*webhook\.test/ }).waitFor({ timeout: 20_000 });
  const test = receiver.received.find((hit) => JSON.parse(hit.body).type === "webhook.test");
  assert.ok(test, "the receiver got webhook.test");
  assert.ok(verifyStandardWebhook(rotated, test.headers, test.body), "signed with the new secret");
  await expectAccessible(page);

  // Edited in place: other events, the same secret and log.
  await page.getByRole("button", { name: "Edit endpoint" }).click();
  const edit = page.getByRole("dialog", { name: "Edit webhook endpoint" });
  await edit.getByRole("textbox", { name: "Endpoint URL" }).waitFor();
  assert.equal(await edit.getByRole("textbox", { name: "Endpoint URL" }).inputValue(), receiver.url);
  await expectAccessible(page);
  await edit.getByRole("textbox", { name: "Endpoint URL" }).fill(`${receiver.url}?moved=1`);
  await edit.getByRole("button", { name: "Save changes" }).click();
  await edit.waitFor({ state: "hidden" });
  await page.getByText(`${receiver.url}?moved=1`).first().waitFor();
  const [saved] = expectStatus(await call(t, "GET", `/webhooks/${appId}`, { token }), 200);
  assert.equal(saved.url, `${receiver.url}?moved=1`);

  // Disabled through the same dialog: the page and the list say so, and it takes no test event;
  // then enabled again.
  const setEnabled = async (on: boolean) => {
    await page.getByRole("button", { name: "Edit endpoint" }).click();
    await edit.getByRole("switch", { name: "Enabled" }).setChecked(on);
    await edit.getByRole("button", { name: "Save changes" }).click();
    await edit.waitFor({ state: "hidden" });
  };
  await setEnabled(false);
  await page.getByText("Disabled", { exact: true }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Send test event" }).isDisabled(), true);
  const [off] = expectStatus(await call(t, "GET", `/webhooks/${appId}`, { token }), 200);
  assert.equal(off.enabled, false);
  assert.equal(off.url, `${receiver.url}?moved=1`, "only the switch changed");
  await expectAccessible(page);
  await page.getByRole("link", { name: "← Webhooks" }).click();
  await page.getByRole("heading", { level: 1, name: "Webhooks" }).waitFor();
  await page.getByText("Disabled", { exact: true }).waitFor();
  await expectAccessible(page);
  await page.getByRole("link", { name: `${receiver.url}?moved=1` }).click();
  await page.getByRole("heading", { level: 1, name: "Webhook endpoint" }).waitFor();
  await setEnabled(true);
  await page.getByText("Enabled", { exact: true }).waitFor();
  assert.equal(await page.getByRole("button", { name: "Send test event" }).isDisabled(), false);
  const [on] = expectStatus(await call(t, "GET", `/webhooks/${appId}`, { token }), 200);
  assert.equal(on.enabled, true);

  await page.setViewportSize({ width: 390, height: 844 });
  assert.equal(await fitsWidth(page, 390), true, "no horizontal scroll on the endpoint");
  // The delivery log, too: each delivery's status and event within the screen.
  assert.ok(
    await page
      .getByRole("button", { name: /succeeded\s*payment\.paid/ })
      .first()
      .isVisible(),
  );
  await expectAccessible(page);

  await page.getByRole("button", { name: "Delete endpoint" }).click();
  await (await accessibleDialog(page, "Delete this endpoint?"))
    .getByRole("button", { name: "Delete endpoint" })
    .click();
  await page.getByRole("heading", { level: 1, name: "Webhooks" }).waitFor();
  await page.getByText("No webhook endpoints yet").waitFor();
  assert.equal(await fitsWidth(page, 390), true, "no horizontal scroll on the list");
  assert.deepEqual(expectStatus(await call(t, "GET", `/webhooks/${appId}`, { token }), 200), []);
  expectNoConsoleErrors(ui.owner.errors);
});
