import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  type Dashboard,
  expectAccessible,
  expectNoConsoleErrors,
  newOwnerPage,
  type OwnerPage,
  startDashboard,
} from "../helpers/dashboard.ts";

// Apps in the console: a new user signs up, creates an app and finds it listed, with the test-mode
// badge in the header, under the console's strict CSP.
let dashboard: Dashboard;
let owner: OwnerPage;

before(async () => {
  dashboard = await startDashboard();
  owner = await newOwnerPage(dashboard);
});
after(async () => {
  await dashboard?.close();
});

test("a new user signs up, creates an app and sees it listed, in test mode", async () => {
  const { page, appName, appId, errors } = owner;
  assert.match(appId, /^app_/);
  await page.getByRole("link", { name: appName }).waitFor();
  assert.equal(await page.getByText("Test mode", { exact: true }).isVisible(), true);
  await expectAccessible(page);
  expectNoConsoleErrors(errors);
});
