// Pieces the benchmark scripts share: JSON over HTTP, a tenant with an app and a price, and the
// whole life of many payments (create -> confirm with the sandbox's test card -> `paid`).
import http from "node:http";
import { DEFAULT_COUNT_CAP } from "../src/platform/http/pagination.ts";

export const CARD = { type: "card", number: "4242424242424242", exp_month: 12, exp_year: 2030, cvc: "123" };

// node:http on kept-alive sockets, not fetch: the client shares the machine's two cores with the
// servers it measures, and fetch cost about three times the CPU a request (a quarter of a core at
// 180 payments a second in `npm run bench:lifecycle`), where the control's client (autocannon) is
// as lean as this one (docs/benchmarks.md, "Every repeated statement prepared").
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

export function json(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ body: any; headers: { get(name: string): string | null } }> {
  const method = init.method ?? "GET";
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method,
        agent,
        headers: {
          "content-type": "application/json",
          ...(payload === undefined ? {} : { "content-length": Buffer.byteLength(payload) }),
          ...init.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const status = response.statusCode ?? 0;
          if (status < 200 || status >= 300) {
            reject(new Error(`${method} ${url}: ${status} ${text}`));
            return;
          }
          const headers = response.headers;
          resolve({
            body: text === "" ? undefined : JSON.parse(text),
            headers: { get: (name) => (headers[name.toLowerCase()] as string | undefined) ?? null },
          });
        });
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

/** A signed-up user with an app and a 12.50 USD price: what every payment row needs. */
export async function tenant(base: string, label: string) {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const { body: session } = await json(`${base}/auth/signup`, {
    method: "POST",
    body: {
      email: `${label}${stamp}@example.com`,
      password: "benchmark password 1",
      username: `${label}${stamp}`,
      first_name: "Bench",
      last_name: "Mark",
    },
  });
  const auth = { authorization: `Bearer ${session.token}` };
  const { body: app } = await json(`${base}/apps`, {
    method: "POST",
    headers: auth,
    body: { name: "Bench app", app_fee: 1.5, use_explorer: false },
  });
  const { body: price } = await json(`${base}/prices/${app.id}`, {
    method: "POST",
    headers: auth,
    body: { name: "Bench ticket", amount: 12.5, currency: "usd" },
  });
  return { auth, appId: app.id as string, priceId: price.id as string };
}

/**
 * `payments` payments, `concurrency` at a time, each created and confirmed, then waits (up to
 * five minutes) until all are `paid`. Answers the seconds until the last create/confirm was
 * answered, the seconds from then until the last was paid, and how many were paid.
 */
export async function lifecycle(
  base: string,
  who: Awaited<ReturnType<typeof tenant>>,
  payments: number,
  concurrency: number,
) {
  const { auth, appId, priceId } = who;
  const before = await paidCount(base, who);
  const started = Date.now();
  let next = 0;
  const pay = async () => {
    while (next < payments) {
      next++;
      const { body: payment } = await json(`${base}/payments/${appId}`, {
        method: "POST",
        headers: auth,
        body: { price_id: priceId, payment_provider: "card" },
      });
      await json(`${base}/payments/${appId}/${payment.id}/confirm`, {
        method: "POST",
        headers: auth,
        body: { payment_method: CARD },
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, pay));
  const submitted = Date.now();
  let paid = 0;
  while (Date.now() - submitted < 300_000) {
    paid = (await paidCount(base, who)) - before;
    if (paid >= payments) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const finished = Date.now();
  return {
    paid,
    seconds: (finished - started) / 1000,
    submitSeconds: (submitted - started) / 1000,
    drainSeconds: (finished - submitted) / 1000,
  };
}

/**
 * What a server measured by `lifecycle(…, payments)` needs in its environment: `X-Total-Count`
 * exact up to all of them (`LIST_COUNT_CAP`, 1,000 by default), as the count of the paid is how the
 * run sees them done. Nothing for a run within the default, whose lists are then measured as served.
 */
export const countingEnv = (payments: number): Record<string, string> =>
  payments > DEFAULT_COUNT_CAP ? { LIST_COUNT_CAP: String(payments) } : {};

async function paidCount(base: string, { auth, appId }: { auth: Record<string, string>; appId: string }) {
  const { headers } = await json(`${base}/payments/${appId}?status=paid&limit=1`, { headers: auth });
  // A capped count stops at the cap, and a run waiting for more would wait its five minutes.
  if (headers.get("x-total-count-capped") === "true")
    throw new Error(
      `the paid count stopped at its cap (${headers.get("x-total-count")}): start the server with countingEnv(payments)`,
    );
  return Number(headers.get("x-total-count"));
}

/** A path template's `{app_id}`, `{price_id}` and `{payment_id}` filled in (BENCH_AB_PATHS, BENCH_PROFILE_PATH). */
export function fillPath(
  template: string,
  ids: { appId: string; priceId: string; paymentId: string },
): string {
  return template
    .replace("{app_id}", ids.appId)
    .replace("{price_id}", ids.priceId)
    .replace("{payment_id}", ids.paymentId);
}
