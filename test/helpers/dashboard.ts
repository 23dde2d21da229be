import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { after, afterEach, before, type TestContext } from "node:test";
import type { Browser, Page } from "playwright-core";
import type { TestApp } from "./app.ts";
import { buildServedApp, launchBrowser } from "./browser.ts";

// The dashboard's browser tests: one served app and one browser per test file (they are the
// slowest tests), pages signed in through the dashboard's own forms.

export interface Dashboard {
  /** The served app's origin; the console is at `${base}/dashboard`. */
  base: string;
  browser: Browser;
  t: TestApp;
  close(): Promise<void>;
}

export async function startDashboard(env: Record<string, string> = {}): Promise<Dashboard> {
  // Side by side: the app's migrations and the browser's start are the slow part of every file.
  // Whichever of the two started is closed if the other failed: a browser or an app left open
  // keeps the test lane's process alive after its last file.
  const [served, launched] = await Promise.allSettled([buildServedApp(env), launchBrowser()]);
  if (served.status === "rejected" || launched.status === "rejected") {
    if (served.status === "fulfilled") await served.value.t.close();
    if (launched.status === "fulfilled") await launched.value.close();
    throw served.status === "rejected" ? served.reason : (launched as PromiseRejectedResult).reason;
  }
  const { t, base } = served.value;
  const browser = launched.value;
  return {
    base,
    browser,
    t,
    async close() {
      try {
        await browser.close();
      } finally {
        await t.close();
      }
    },
  };
}

export interface DashboardFixture {
  /** The served app and the browser (`startDashboard`). */
  readonly dashboard: Dashboard;
  /** A new user signed in through the console, with one app (`newOwnerPage`). */
  readonly owner: OwnerPage;
}

export interface DashboardFixtureOptions {
  /**
   * The file's own set-up, run once the owner's page is ready: not a second top-level `before`,
   * which node:test would start without waiting for this one (see `useTestApp`).
   */
  setUp?: () => Promise<void>;
  /** The file's own clean-up, run before the browser and the app close. */
  tearDown?: () => Promise<void>;
}

/**
 * The set-up every dashboard browser test file shares, as `useTestApp` for the API's: the served
 * app, the browser and a signed-in owner with an app before the file's tests, all closed after them.
 * Call it at the top of the file; read `ui.dashboard` and `ui.owner` inside tests and hooks.
 */
export function useDashboard(
  env: Record<string, string> = {},
  options: DashboardFixtureOptions = {},
): DashboardFixture {
  let dashboard: Dashboard | undefined;
  let owner: OwnerPage | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("useDashboard: read the fixture inside a test or hook");
    return value;
  };
  before(async () => {
    dashboard = await startDashboard(env);
    owner = await newOwnerPage(dashboard);
    await options.setUp?.();
  });
  afterEach(async (t) => {
    if (dashboard) await keepScreenshots(dashboard, t);
  });
  after(async () => {
    if (!dashboard) return;
    try {
      await options.tearDown?.();
    } finally {
      await dashboard.close();
    }
  });
  return {
    get dashboard() {
      return ready(dashboard);
    },
    get owner() {
      return ready(owner);
    },
  };
}

/** Where each test's screenshots are kept (git ignores it): `test-results/dashboard/<file>/`. */
export const SCREENSHOTS_DIR = path.resolve("test-results/dashboard");

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 80);

/**
 * Every page still open after a test, as the person saw it last (desktop or 390 px, named by its
 * width): what a failing or surprising test is read with. A screenshot that cannot be taken (a
 * page closing) is skipped; it never fails the test.
 */
async function keepScreenshots(dashboard: Dashboard, t: Pick<TestContext, "name" | "filePath">) {
  const file = slug(path.basename(t.filePath ?? "dashboard", ".test.ts"));
  const dir = path.join(SCREENSHOTS_DIR, file);
  const pages = dashboard.browser.contexts().flatMap((context) => context.pages());
  if (pages.length === 0) return;
  await mkdir(dir, { recursive: true });
  await Promise.all(
    pages.map(async (page, i) => {
      const width = page.viewportSize()?.width ?? 0;
      await page
        .screenshot({ path: path.join(dir, `${slug(t.name)}-${i + 1}-${width}px.png`), timeout: 5000 })
        .catch(() => {});
    }),
  );
}

export interface OwnerPage {
  page: Page;
  appId: string;
  appName: string;
  email: string;
  password: string;
  /** Console errors and uncaught page errors (a CSP refusal is one), for `expectNoConsoleErrors`. */
  errors: string[];
}

/** A new page (its own context, so its own session) that records its console errors. */
export async function newPage(dashboard: Dashboard, options: { width?: number } = {}) {
  const context = await dashboard.browser.newContext({
    viewport: { width: options.width ?? 1280, height: 900 },
    baseURL: dashboard.base,
  });
  const page = await context.newPage();
  // Four test files run at once on two cores (package.json), ten in CI's PostgreSQL phase: a
  // click's answer can take seconds.
  page.setDefaultTimeout(45_000);
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    // "Failed to load resource" does not say which: the message's location does.
    const { url } = message.location();
    errors.push(
      url && /^Failed to load resource/.test(message.text()) ? `${message.text()} (${url})` : message.text(),
    );
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return { page, errors };
}

/** Fills the sign-in form by its labels and waits for the apps list. */
export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { level: 1, name: "Apps" }).waitFor();
}

/**
 * A new user, signed up through the dashboard's sign-up page, who has created one app through the
 * apps page: the starting point of every area's test.
 */
export async function newOwnerPage(
  dashboard: Dashboard,
  options: { width?: number } = {},
): Promise<OwnerPage> {
  const { page, errors } = await newPage(dashboard, options);
  const tag = randomBytes(4).toString("hex");
  const email = `owner-${tag}@example.com`;
  const password = `correct horse ${tag}`;
  await page.goto("/dashboard/sign-up");
  await page.getByLabel("First name").fill("Ada");
  await page.getByLabel("Last name").fill("Lovelace");
  await page.getByLabel("Username").fill(`ada_${tag}`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("heading", { level: 1, name: "Apps" }).waitFor();

  const appName = `Shop ${tag}`;
  await page.getByRole("button", { name: "Create app" }).click();
  const dialog = page.getByRole("dialog", { name: "Create an app" });
  await dialog.getByLabel("App name").fill(appName);
  await dialog.getByRole("button", { name: "Create app" }).click();
  const link = page.getByRole("link", { name: appName });
  await link.waitFor();
  const href = (await link.getAttribute("href")) ?? "";
  const appId = href.split("/apps/")[1] ?? "";
  assert.ok(appId, `the app's link names its id (${href})`);
  return { page, appId, appName, email, password, errors };
}

const require = createRequire(import.meta.url);
const axeSource: string = require("axe-core").source;

/** axe-core in the page: fails on any serious or critical violation, naming each and where. */
export async function expectAccessible(page: Page) {
  // A dialog fading out (or a notification fading in) is half transparent, and axe reads its text
  // as low contrast: check the page once no finite animation runs and no element that a
  // transition fades (Mantine writes their opacity inline) is part-way, in two quiet looks 100 ms
  // apart. Endless animations (a loader's spinner) never end, so they are not waited for, and
  // after ten seconds (four test files share two cores) axe runs anyway.
  await page
    .waitForFunction(
      () => {
        type Animated = {
          getAnimations(): { effect: { getTiming(): { iterations?: number } } | null }[];
          querySelectorAll(selector: string): ArrayLike<unknown>;
        };
        const state = globalThis as unknown as {
          document: Animated;
          getComputedStyle(element: unknown): { opacity: string };
          quietSince?: number;
        };
        const fading = Array.from(state.document.querySelectorAll('[style*="opacity"]')).some((element) => {
          const opacity = Number(state.getComputedStyle(element).opacity);
          return opacity > 0 && opacity < 1;
        });
        // An open dialog, a tooltip the pointer left showing, or a notification (role alert) is
        // checked once it is wholly shown: on a busy machine its fade-in may not have begun at the
        // first look (opacity 0, no transition yet), and axe then reads its text as faint. Its own
        // and its ancestors' opacity must all be 1 (a closed one is not in the page at all).
        const overlays = state.document.querySelectorAll('[role="dialog"], [role="tooltip"], [role="alert"]');
        const dialogHidden = Array.from(overlays).some((dialog) => {
          for (
            let node = dialog as { parentElement: unknown } | null;
            node;
            node = node.parentElement as never
          ) {
            if (Number(state.getComputedStyle(node).opacity) < 1) return true;
          }
          return false;
        });
        const moving =
          fading ||
          dialogHidden ||
          state.document
            .getAnimations()
            .some((animation) => animation.effect?.getTiming().iterations !== Number.POSITIVE_INFINITY);
        if (moving) {
          state.quietSince = undefined;
          return false;
        }
        state.quietSince ??= Date.now();
        return Date.now() - state.quietSince >= 100;
      },
      undefined,
      { timeout: 10_000, polling: 25 },
    )
    .catch(() => {});
  // Evaluated through the debugging protocol, so the page's own CSP (no inline scripts) allows it.
  // Once a document: axe's 1.5 MB of source crossed the pipe and was compiled by the page at every
  // check (a file makes several on one page); it stays in the window until a new document loads.
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(axeSource);
  const violations: {
    id: string;
    impact: string;
    help: string;
    nodes: { target: string[]; html: string }[];
  }[] = await page.evaluate(async () => {
    const page = globalThis as any;
    // No transition while axe reads the page: on a busy machine its run takes seconds, and a
    // notification whose time is up starts fading out meanwhile (seen: read half transparent, so
    // "low contrast"). Without transitions an element is shown or gone, never part-way. A
    // constructed style sheet, which the page's CSP (style-src with a nonce) does not govern.
    const still = new page.CSSStyleSheet();
    still.replaceSync("*, *::before, *::after { transition: none !important; animation: none !important; }");
    page.document.adoptedStyleSheets = [...page.document.adoptedStyleSheets, still];
    try {
      const result = await page.axe.run(page.document, { resultTypes: ["violations"] });
      return result.violations;
    } finally {
      page.document.adoptedStyleSheets = page.document.adoptedStyleSheets.filter(
        (sheet: unknown) => sheet !== still,
      );
    }
  });
  const serious = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.html.slice(0, 200)).join(", ")}`);
  assert.deepEqual(serious, [], `accessibility violations on ${page.url()}`);
}

/** Nothing wider than the viewport: the page is usable without scrolling sideways. */
export async function expectFitsWidth(page: Page, width: number) {
  const scrollWidth: number = await page.evaluate(
    () => (globalThis as any).document.documentElement.scrollWidth,
  );
  assert.ok(
    scrollWidth <= width,
    `no sideways scrolling at ${width} px (the page is ${scrollWidth} px wide)`,
  );
}

export function expectNoConsoleErrors(errors: string[]) {
  assert.deepEqual(errors, [], "console errors");
}
