import { SandboxKycProvider } from "../../src/platform/providers/kyc/sandbox.ts";
import type { TestApp } from "../helpers/app.ts";
import type { FakeClock } from "../helpers/clock.ts";
import { type Answer, type CallOptions, call, createApp, signup } from "../helpers/http.ts";
import { onboardSeller, RETURN_URL } from "../helpers/kyc.ts";
import { apiKeyOf, createPrice } from "../helpers/prices.ts";
import { evmTrigger } from "../helpers/triggers.ts";
import { Receiver } from "../helpers/webhooks.ts";
import type { Marker } from "./scenario.ts";

/** A run's failure: what broke, with the run's seed and log printed by `runSeed`. */
export class SimulationFailure extends Error {}

/** What the run knows of a payment it made: how it was made, and how to reach it. */
export interface KnownPayment {
  id: string;
  priceId: string;
  /** The shopper page's credential (the hosted checkout's `x-payment-token`). */
  token: string;
  via: "api" | "checkout" | "bid";
  method: "card" | "us_bank_account";
  marker: Marker;
  /** Whether its price names the app's seller, who is paid their share by transfer. */
  seller: boolean;
  /** The auction it bids on, for a bid's payment. */
  auction?: number;
}

export interface KnownAuction {
  id: string;
  endsAt: number;
  /** Shopper sessions by shopper index (signed in on first bid, again once expired). */
  sessions: (string | undefined)[];
}

/** A receiver address per shopper; the call's outcome is chosen by the marker, never the address. */
export const RECEIVERS = [
  "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
  "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
];

/** The trigger input that selects `marker`'s outcome: the memo carries `sandbox:<marker>`. */
export function triggerInput(marker: Marker, order: string, shopper = 0) {
  const memo = marker === "success" || marker === "none" ? order : `${order} sandbox:${marker}`;
  return { params_data_input: { receiver: RECEIVERS[shopper], quantity: 1, order_id: memo } };
}

/**
 * One run's view of the service: the app under test (replaced on a restart), the clock, the
 * tenant it set up through the API, and what it made since. Everything is reached over HTTP.
 */
export class World {
  t: TestApp;
  readonly clock: FakeClock;
  readonly log: string[] = [];
  readonly receiver = new Receiver();
  /** The scenario's payments, by their index in it. */
  readonly payments: KnownPayment[] = [];
  /** The payments of accepted bids, in the order they were made. */
  readonly bids: KnownPayment[] = [];
  readonly auctions: KnownAuction[] = [];
  appId = "";
  key = "";
  endpointId = "";
  triggerId = "";
  plainPriceId = "";
  triggerPriceId = "";
  sellerId = "";
  /** The seller's account at the (sandbox) provider, whose payouts the run pauses and resumes. */
  sellerAccountId = "";
  /** A second seller of the app, whose payouts are never paused: where the app re-points payouts. */
  secondSellerId = "";
  sellerPlainPriceId = "";
  sellerTriggerPriceId = "";
  #payoutChanges = 0;
  /** A prefix that keeps this run's shopper emails apart from another run's on the same service. */
  readonly tag: string;

  constructor(t: TestApp, clock: FakeClock, tag: string) {
    this.t = t;
    this.clock = clock;
    this.tag = tag;
  }

  note(line: string) {
    this.log.push(line);
  }

  /**
   * A call with the statuses the step accepts: any other answer (a 500 above all) fails the run,
   * naming the step's request and the answer.
   */
  async call(method: string, url: string, allowed: number[], options: CallOptions = {}): Promise<Answer> {
    const answer = await call(this.t, method, url, { token: this.key, ...options });
    if (!allowed.includes(answer.status)) {
      throw new SimulationFailure(
        `${method} ${url} answered ${answer.status} (expected ${allowed.join(" or ")}): ${answer.text.slice(0, 600)}`,
      );
    }
    return answer;
  }

  async payment(index: number): Promise<any> {
    const known = this.payments[index];
    return (await this.call("GET", `/payments/${this.appId}/${known.id}`, [200])).body;
  }

  /** Every payment of the app, bids' included, through the list's pages. */
  async allPayments(): Promise<any[]> {
    const found: any[] = [];
    for (let page = 1; ; page++) {
      const answer = await this.call("GET", `/payments/${this.appId}?limit=100&page=${page}`, [200]);
      found.push(...answer.body);
      if (answer.body.length < 100) return found;
    }
  }

  async auction(index: number): Promise<any> {
    return (await this.call("GET", `/auctions/${this.appId}/${this.auctions[index].id}`, [200])).body;
  }

  /**
   * The tenant, as a new user sets one up: sign up, a marketplace app, an API key (every later
   * call uses it: a key does not expire when the clock jumps a day), a webhook endpoint for every
   * event, a managed EVM wallet, its trigger, two sellers onboarded through the KYC widget, and four
   * prices: plain or with the trigger, the app's own or the first seller's.
   */
  async setUp() {
    const owner = await signup(this.t);
    const app = await createApp(this.t, owner.token, { name: `Simulated shop ${this.tag}` });
    this.appId = app.id;
    await this.call("PATCH", `/apps/${app.id}`, [200], {
      token: owner.token,
      body: { type: "marketplace", app_fee: 2.5, kyc_return_url: RETURN_URL },
    });
    this.key = await apiKeyOf(this.t, owner.token, app.id);
    const url = await this.receiver.start();
    this.endpointId = (
      await this.call("POST", `/webhooks/${app.id}`, [201], { body: { url, events: ["*"] } })
    ).body.id;
    const wallet = (
      await this.call("POST", `/wallets/${app.id}`, [201], { body: { name: "Minter", type: "evm" } })
    ).body;
    this.triggerId = (
      await this.call("POST", `/triggers/${app.id}`, [201], { body: evmTrigger(wallet.id) })
    ).body.id;
    this.plainPriceId = (await createPrice(this.t, this.key, app.id, { name: "Poster", amount: 12.5 })).id;
    const ticket = { name: "Minted ticket", amount: 15, trigger_id: this.triggerId, chain: "evm" };
    this.triggerPriceId = (await createPrice(this.t, this.key, app.id, ticket)).id;
    const seller = await onboardSeller(this.t, app.id, this.key, `seller-${this.tag}`);
    this.sellerId = seller.id;
    this.sellerAccountId = seller.account_id;
    this.secondSellerId = (await onboardSeller(this.t, app.id, this.key, `second-${this.tag}`)).id;
    this.sellerPlainPriceId = (
      await createPrice(this.t, this.key, app.id, { name: "Print", amount: 13.37, kyc_id: this.sellerId })
    ).id;
    this.sellerTriggerPriceId = (
      await createPrice(this.t, this.key, app.id, { ...ticket, amount: 16.21, kyc_id: this.sellerId })
    ).id;
  }

  /**
   * The provider pauses (or resumes) the seller's payouts, as its risk team may: an outside
   * system's own state, set through the sandbox's test control, as the receiver's outage is.
   */
  async pausePayouts(paused: boolean) {
    const key = `${this.tag}-payouts-${++this.#payoutChanges}`;
    await new SandboxKycProvider(this.t.deps.db).pausePayouts(this.sellerAccountId, paused, key);
  }

  /** The app's seller other than `kycId`. */
  otherSeller(kycId: string | null): string {
    return kycId === this.sellerId ? this.secondSellerId : this.sellerId;
  }

  /** The price a payment of the scenario is made for. */
  priceFor(marker: Marker, seller: boolean): string {
    if (marker === "none") return seller ? this.sellerPlainPriceId : this.plainPriceId;
    return seller ? this.sellerTriggerPriceId : this.triggerPriceId;
  }

  #signingIn: Promise<unknown> = Promise.resolve();

  /**
   * A shopper's session on an auction, signed in by the code mailed to them. One sign-in at a
   * time: a shopper is one per app, and a new code replaces the one before, so two sign-ins at
   * once (two auctions) would each read the other's code, as two tabs of one person would.
   */
  shopperSession(auction: number, shopper: number): Promise<string> {
    const next = this.#signingIn.then(() => this.#signIn(auction, shopper));
    this.#signingIn = next.catch(() => {});
    return next;
  }

  async #signIn(auction: number, shopper: number): Promise<string> {
    const known = this.auctions[auction];
    const email = `${this.tag}-s${shopper}@example.com`;
    const base = `/auctions/${this.appId}/${known.id}/shoppers`;
    const before = this.t.mailer.to(email).length;
    await this.call("POST", `${base}/code`, [204], { token: undefined, body: { email } });
    const code = await this.until(`the code mailed to ${email}`, 15_000, () => {
      const mails = this.t.mailer.to(email);
      if (mails.length <= before) return undefined;
      return /code is (\d{6})/.exec(mails[mails.length - 1].text)?.[1];
    });
    const session = await this.call("POST", `${base}/session`, [201], {
      token: undefined,
      body: { email, code },
    });
    known.sessions[shopper] = session.body.token;
    return session.body.token;
  }

  /** Polls `check` until it answers, or fails the run naming `what`. */
  async until<T>(what: string, timeoutMs: number, check: () => T | undefined | Promise<T | undefined>) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new SimulationFailure(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
