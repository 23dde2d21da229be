import { and, eq } from "drizzle-orm";
import { webhookEvents } from "../../src/modules/webhooks/tables.ts";
import type { TestApp } from "./app.ts";
import { eventually } from "./contract.ts";
import { useTestApp } from "./fixture.ts";
import { call, expectStatus } from "./http.ts";
import { CARDS, card } from "./payments.ts";
import { Receiver } from "./webhooks.ts";

export const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

export async function createAuction(
  t: TestApp,
  token: string,
  appId: string,
  body: Record<string, unknown> = {},
) {
  return expectStatus(
    await call(t, "POST", `/auctions/${appId}`, {
      token,
      body: {
        name: "Signed print",
        amount: 10,
        currency: "usd",
        ends_at: inMinutes(60),
        min_increment: 1,
        ...body,
      },
    }),
    201,
  );
}

/** The one-time code last mailed to `email` (the mail goes out as a job). */
export async function mailedCode(t: TestApp, email: string, after = 0): Promise<string> {
  return eventually(() => {
    const mails = t.mailer.to(email);
    if (mails.length <= after) return undefined;
    return /code is (\d{6})/.exec(mails[mails.length - 1].text)?.[1];
  });
}

/** Signs a shopper in by code; answers the session (token and shopper). */
export async function shopperSession(t: TestApp, appId: string, auctionId: string, email: string) {
  const before = t.mailer.to(email).length;
  const base = `/auctions/${appId}/${auctionId}/shoppers`;
  expectStatus(await call(t, "POST", `${base}/code`, { body: { email } }), 204);
  const code = await mailedCode(t, email, before);
  return expectStatus(await call(t, "POST", `${base}/session`, { body: { email, code } }), 201);
}

export async function placeBid(
  t: TestApp,
  shopperToken: string,
  appId: string,
  auctionId: string,
  amount: number | string,
  number = CARDS.ok,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return call(t, "POST", `/auctions/${appId}/${auctionId}/bids`, {
    token: shopperToken,
    headers,
    body: { amount, payment_method: card(number), ...extra },
  });
}

/** Waits until the bid reaches `status` in the auction (its hold lands as a job), and answers the auction. */
export async function waitForBid(
  t: TestApp,
  token: string,
  appId: string,
  auctionId: string,
  bidId: string,
  status: string,
) {
  let last: any;
  try {
    return await eventually(async () => {
      last = expectStatus(await call(t, "GET", `/auctions/${appId}/${auctionId}`, { token }), 200);
      const bid = last.bids.find((b: { id: string }) => b.id === bidId);
      return bid?.status === status ? last : undefined;
    }, 45_000);
  } catch {
    throw new Error(
      `bid ${bidId} never became ${status}: ${JSON.stringify(last?.bids?.map((b: any) => [b.id, b.status, b.reason]))}`,
    );
  }
}

/**
 * Ends the auction now (`POST …/end`), as its owner would: the standing bid wins as at its end
 * time. Tests open auctions that end far ahead and end them once their bids stand, so a loaded
 * machine cannot let the end pass before the bids are in.
 */
export async function endAuctionNow(t: TestApp, token: string, appId: string, auctionId: string) {
  return expectStatus(await call(t, "POST", `/auctions/${appId}/${auctionId}/end`, { token }), 200);
}

/** An `ends_at` far enough ahead that only `endAuctionNow` ends the auction during a test. */
export const endsLater = () => new Date(Date.now() + 3600_000).toISOString();

/**
 * A loopback endpoint subscribed to the app's `auction.*` events: events are stored only when an
 * endpoint listens. Build the app with WEBHOOKS_ALLOW_LOOPBACK=true.
 */
export async function listenToAuctionEvents(t: TestApp, token: string, appId: string) {
  const receiver = new Receiver();
  const url = await receiver.start();
  expectStatus(
    await call(t, "POST", `/webhooks/${appId}`, { token, body: { url, events: ["auction.*"] } }),
    201,
  );
  return receiver;
}

/**
 * The file's app (useTestApp) with a loopback endpoint listening to its owner's app's `auction.*`
 * events from before the file's tests, handed to `listening`, and stopped once the app is closed.
 * Answers the app and `events(type)`: the events of that type stored for the owner's app.
 */
export function useAuctionEventsApp(listening: (receiver: Receiver) => void = () => {}) {
  let receiver: Receiver | undefined;
  const fx = useTestApp(
    { WEBHOOKS_ALLOW_LOOPBACK: "true" },
    {
      async setUp() {
        receiver = await listenToAuctionEvents(fx.app, fx.tenants.owner.token, fx.tenants.app.id);
        listening(receiver);
      },
      async afterClose() {
        await receiver?.stop();
      },
    },
  );
  const events = async (type: string) =>
    fx.app.deps.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.appId, fx.tenants.app.id), eq(webhookEvents.type, type)));
  return { fx, events };
}
