// The screenshots of docs/dashboard.md ("Pages") and the README's: a service built in this process
// (sandbox mode, an in-memory PGlite, as the browser tests build it), seeded only through its public
// HTTP API as an owner and their shoppers would use it, and photographed in Debian's chromium after
// signing in through the dashboard's own sign-in page.
//
//   PATH=$PWD/node_modules/.bin:$PATH npm run dashboard:build   the console as the source is now
//   npm run docs:screenshots                                      docs/dashboard/*.png, docs/dashboard.png
//
// Emails, names and amounts are fixed, so reruns look alike; ids, dates and times are the run's own.
import { copyFileSync, mkdirSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Locator, Page } from "playwright-core";
import { buildServedApp, launchBrowser } from "../test/helpers/browser.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const OUT = path.join(ROOT, "docs/dashboard");
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const RECEIVER_PORT = 8088;

// The embedded PGlite whatever the shell says: these pictures need no server and leave nothing behind.
delete process.env.DATABASE_URL;
delete process.env.DATABASE_DIRECT_URL;
delete process.env.DATABASE_REPLICA_URL;

const OWNER = {
  email: "ada@example.com",
  password: "correct horse battery staple",
  username: "ada",
  first_name: "Ada",
  last_name: "Lovelace",
};
const BRAND = { name: "Ada's Pottery", accent: "#0b7a75" };
const PRICES = [
  { key: "bowl", name: "Small bowl", amount: "24.00" },
  { key: "teaSet", name: "Tea set", amount: "68.00" },
  { key: "class", name: "Pottery class", amount: "45.00" },
  { key: "vase", name: "Vase", amount: "120.00" },
] as const;
type PriceKey = (typeof PRICES)[number]["key"];

const CARD_OK = "4242424242424242";
const CARD_DECLINED = "4000000000000002";

interface Sale {
  price: PriceKey;
  shopper: string;
  /** The sandbox card the shopper pays with; none leaves the payment open (pending). */
  card?: string;
  /** A partial refund, in dollars. */
  refund?: string;
}
// In the order they are made: the list shows them newest first.
const SALES: Sale[] = [
  { price: "teaSet", shopper: "grace.hopper@example.com", card: CARD_OK },
  { price: "bowl", shopper: "alan.turing@example.com", card: CARD_OK },
  { price: "class", shopper: "katherine.johnson@example.com", card: CARD_OK, refund: "20.00" },
  { price: "vase", shopper: "barbara.liskov@example.com", card: CARD_OK },
  { price: "class", shopper: "margaret.hamilton@example.com", card: CARD_OK },
  { price: "teaSet", shopper: "john.backus@example.com", card: CARD_OK },
  { price: "bowl", shopper: "radia.perlman@example.com" },
  // Last, so its refused delivery heads the webhook log.
  { price: "bowl", shopper: "edsger.dijkstra@example.com", card: CARD_DECLINED },
];

/** The service's public HTTP API, as a program holding `token` calls it. */
function apiClient(base: string) {
  return async function api<Answer = unknown>(
    method: string,
    route: string,
    options: { token?: string; body?: unknown; bytes?: Uint8Array; type?: string; ok?: number[] } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | Uint8Array | undefined;
    if (options.bytes) {
      body = options.bytes;
      headers["content-type"] = options.type ?? "application/octet-stream";
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] = "application/json";
    }
    const response = await fetch(`${base}${route}`, { method, headers, body });
    const text = await response.text();
    const expected = options.ok ?? [200, 201, 204];
    if (!expected.includes(response.status)) {
      throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
    }
    return (text ? JSON.parse(text) : undefined) as Answer;
  };
}
type Api = ReturnType<typeof apiClient>;
type Made = { id: string };
type PaymentState = { status: string; amount_refunded: number };

async function until<T>(what: string, look: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await look();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * A loopback webhook receiver: it takes every delivery but the first `payment.failed`, which it
 * answers 503, so the log shows a failed attempt as well as the successful ones.
 */
async function startReceiver() {
  let refusedOnce = false;
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const type = (JSON.parse(body || "{}") as { type?: string }).type;
      const refuse = type === "payment.failed" && !refusedOnce;
      refusedOnce ||= refuse;
      response.writeHead(refuse ? 503 : 200, { "content-type": "text/plain" });
      response.end(refuse ? "busy, try again later" : "ok");
    });
  });
  // A fixed port when it is free, so the endpoint's URL reads the same from run to run.
  await new Promise<void>((resolve) => {
    server.once("error", () => server.listen(0, "127.0.0.1", resolve));
    server.listen(RECEIVER_PORT, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/payments`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** A 128 px square icon with the shop's initials on its accent colour, drawn by the browser. */
async function drawIcon(browser: Browser): Promise<Uint8Array> {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 } });
  await page.setContent(
    `<body style="margin:0"><div style="width:128px;height:128px;display:flex;align-items:center;` +
      `justify-content:center;background:${BRAND.accent};color:#fff;font:600 56px sans-serif;` +
      `border-radius:28px">AP</div></body>`,
  );
  const png = await page.screenshot({ omitBackground: true });
  await page.close();
  return png;
}

/** Everything the pages show, made through the API: the owner's app, its prices, sales and settings. */
async function seed(api: Api, browser: Browser, receiverUrl: string) {
  const { token } = await api<{ token: string }>("POST", "/auth/signup", { body: OWNER });
  const app = await api<Made>("POST", "/apps", {
    token,
    body: { name: BRAND.name, type: "individual", app_fee: 0, use_explorer: false },
  });
  await api("PATCH", `/apps/${app.id}`, {
    token,
    body: { display_name: BRAND.name, accent_color: BRAND.accent },
  });
  await api("PUT", `/apps/${app.id}/icon`, { token, bytes: await drawIcon(browser), type: "image/png" });

  const endpoint = await api<Made>("POST", `/webhooks/${app.id}`, {
    token,
    body: { url: receiverUrl, events: ["payment.*"] },
  });
  const prices = {} as Record<PriceKey, string>;
  for (const price of PRICES) {
    const made = await api<Made>("POST", `/prices/${app.id}`, {
      token,
      body: { name: price.name, amount: price.amount, currency: "usd" },
    });
    prices[price.key] = made.id;
  }

  const payments: { sale: Sale; id: string }[] = [];
  for (const sale of SALES) {
    const payment = await api<Made>("POST", `/payments/${app.id}`, {
      token,
      body: { price_id: prices[sale.price], payment_provider: "card", shopper_email: sale.shopper },
    });
    payments.push({ sale, id: payment.id });
    if (!sale.card) continue;
    // A declined card is the shopper's problem, not the caller's: a 4xx answer, the payment failed.
    await api("POST", `/payments/${app.id}/${payment.id}/confirm`, {
      token,
      body: {
        payment_method: { type: "card", number: sale.card, exp_month: 12, exp_year: 2030, cvc: "123" },
      },
      ok: [200, 402, 409, 422],
    });
  }
  for (const { sale, id } of payments) {
    const status = !sale.card ? "pending" : sale.card === CARD_OK ? "paid" : "failed";
    await until(`${id} ${status}`, async () => {
      const payment = await api<PaymentState>("GET", `/payments/${app.id}/${id}`, { token });
      return payment.status === status ? payment : undefined;
    });
    if (!sale.refund) continue;
    await api("POST", `/payments/${app.id}/${id}/refund`, {
      token,
      body: { amount: sale.refund, reason: "One seat of the class was given back" },
    });
    await until(`${id} refunded in part`, async () => {
      const payment = await api<PaymentState>("GET", `/payments/${app.id}/${id}`, { token });
      return payment.amount_refunded > 0 ? payment : undefined;
    });
  }

  await api("POST", `/apps/${app.id}/api-keys`, { token, body: { name: "Shop server" } });
  await api("POST", `/apps/${app.id}/api-keys`, { token, body: { name: "Stock sync" } });
  await api("POST", `/members/${app.id}`, {
    token,
    body: { email: "grace.hopper@example.com", role: "developer" },
  });

  // Every event delivered, the refused one by its retry (pg-boss's backoff: 2 to 4 s).
  await until("the webhook deliveries", async () => {
    const deliveries = await api<{ status: string; attempt_count: number; event: { type: string } }[]>(
      "GET",
      `/webhooks/${app.id}/${endpoint.id}/deliveries`,
      { token },
    );
    const retried = deliveries.some((d) => d.event.type === "payment.failed" && d.attempt_count > 1);
    return retried && deliveries.every((d) => d.status === "succeeded") ? deliveries : undefined;
  });

  const refunded = payments.find(({ sale }) => sale.refund)?.id ?? "";
  return { appId: app.id, endpointId: endpoint.id, refundedPaymentId: refunded };
}

/** Waits until the page has drawn its data: no loader, no request in flight, charts drawn. */
async function settle(page: Page) {
  await page.waitForLoadState("networkidle").catch(() => {});
  // A string, evaluated in the page: scripts are type-checked without the DOM library.
  await page.waitForFunction("!document.querySelector('.mantine-Loader-root')", undefined, {
    timeout: 15_000,
  });
  // Charts and transitions animate in (Recharts' lines, Mantine's fades): let them end.
  await page.waitForTimeout(1200);
}

async function shoot(page: Page, name: string) {
  await settle(page);
  const file = path.join(OUT, `${name}.png`);
  await page.screenshot({ path: file });
  console.log(`${path.relative(ROOT, file)}  ${Math.round(statSync(file).size / 1024)} KB`);
}

/** A new browser context of the given size, signed in through the dashboard's sign-in form. */
async function signedIn(browser: Browser, base: string, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, baseURL: base, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.on("pageerror", (error) => console.error(`page error on ${page.url()}: ${error.message}`));
  await page.goto("/dashboard/sign-in");
  await page.getByLabel("Email").fill(OWNER.email);
  await page.getByLabel("Password").fill(OWNER.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { level: 1, name: "Apps" }).waitFor();
  return page;
}

/** Scrolls the page so `target` sits `offset` px below the window's top (the header takes 60). */
async function scrollNear(page: Page, target: Locator, offset: number) {
  const box = await target.boundingBox();
  if (box) await page.evaluate(`window.scrollBy(0, ${Math.max(0, Math.round(box.y - offset))})`);
}

async function heading(page: Page, name: string | RegExp) {
  await page.getByRole("heading", { level: 1, name }).waitFor();
}

async function photograph(browser: Browser, base: string, seeded: Awaited<ReturnType<typeof seed>>) {
  const { appId, endpointId, refundedPaymentId } = seeded;
  const at = (route: string) => `/dashboard/apps/${appId}${route}`;
  const page = await signedIn(browser, base, DESKTOP);

  await page.goto(at(""));
  await heading(page, "Overview");
  await shoot(page, "overview");

  await page.goto(at("/payments?status=paid"));
  await heading(page, "Payments");
  await page.getByText("grace.hopper@example.com").first().waitFor();
  await shoot(page, "payments");

  await page.goto(at(`/payments/${refundedPaymentId}`));
  await page.getByText("katherine.johnson@example.com").first().waitFor();
  await shoot(page, "payment");

  await page.goto(at("/balances"));
  await heading(page, "Balances");
  await shoot(page, "balances");

  await page.goto(at(`/webhooks/${endpointId}`));
  await heading(page, "Webhook endpoint");
  await page
    .getByRole("button", { name: /succeeded\s*payment\.paid/ })
    .first()
    .waitFor();
  // The delivery that was refused once opened: its request, the receiver's 503, then its 200.
  await page.getByRole("button", { name: /succeeded\s*payment\.failed/ }).click();
  await page.getByText("busy, try again later").first().waitFor();
  await scrollNear(page, page.getByRole("heading", { name: "Deliveries" }), 80);
  await shoot(page, "webhook");

  await page.goto(at("/api-keys"));
  await heading(page, "API keys");
  await page.getByText("Shop server").first().waitFor();
  await shoot(page, "api-keys");

  await page.goto(at("/settings"));
  await heading(page, "Settings");
  const brand = page.getByRole("heading", { name: "What shoppers see" });
  await brand.waitFor();
  await scrollNear(page, brand, 110);
  await shoot(page, "settings");
  await page.context().close();

  const phone = await signedIn(browser, base, PHONE);
  await phone.goto(at("/payments"));
  await heading(phone, "Payments");
  await phone.getByText("grace.hopper@example.com").first().waitFor();
  // The cards, under the end of the filter bar.
  await scrollNear(phone, phone.getByText("Amounts include fees"), 150);
  await shoot(phone, "payments-phone");
  await phone.goto(at(`/payments/${refundedPaymentId}`));
  await phone.getByText("katherine.johnson@example.com").first().waitFor();
  await shoot(phone, "payment-phone");
  await phone.context().close();
}

mkdirSync(OUT, { recursive: true });
const [{ t, base }, browser, receiver] = await Promise.all([
  // The receiver listens on this machine's loopback, which production refuses (SSRF).
  buildServedApp({ WEBHOOKS_ALLOW_LOOPBACK: "true" }),
  launchBrowser(),
  startReceiver(),
]);
try {
  const seeded = await seed(apiClient(base), browser, receiver.url);
  await photograph(browser, base, seeded);
  // The README's picture is the overview.
  copyFileSync(path.join(OUT, "overview.png"), path.join(ROOT, "docs/dashboard.png"));
} finally {
  await browser.close();
  await t.close();
  await receiver.close();
}
