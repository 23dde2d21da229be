import { eq, lt, sql } from "drizzle-orm";
import ipaddr from "ipaddr.js";
import type { Database, Executor } from "../db/index.ts";
import type { JobDefinition } from "../jobs/index.ts";
import { AppError } from "./errors.ts";
import { rateLimitCounters } from "./rate-limit-table.ts";

/** At most `max` hits per `windowSeconds` under one key. */
export interface Limit {
  max: number;
  windowSeconds: number;
}

/** The limits a deployment enforces; each can be changed with `RATE_LIMITS` (README, Settings). */
export interface RateLimitSettings {
  /** Log-in attempts from one client address. */
  login_per_ip: Limit;
  /** Sign-ups from one client address. */
  signup_per_ip: Limit;
  /** Password reset mails asked for from one client address. */
  password_reset_per_ip: Limit;
  /** Password reset mails asked for one address, whoever asks (no mail bombing). */
  password_reset_per_email: Limit;
  /** Verification mails one account asks to be sent again. */
  verification_mail_per_user: Limit;
  /** Payments opened on hosted checkout pages from one client address. */
  checkout_per_ip: Limit;
  /** Payments opened on one price's hosted checkout page, from anywhere. */
  checkout_per_price: Limit;
  /** Requests to the hosted KYC widget from one client address. */
  kyc_widget_per_ip: Limit;
  /** Requests to one KYC record's hosted widget. */
  kyc_widget_per_token: Limit;
  /** One-time bid codes asked for from one client address. */
  shopper_code_per_ip: Limit;
  /** One-time bid codes mailed to one address for one app. */
  shopper_code_per_email: Limit;
  /** Bid codes tried from one client address. */
  shopper_session_per_ip: Limit;
}

// Generous for people, tight for scripts: a person signs up once and logs in a few times an hour;
// a shop's checkout sees one payment per shopper a minute at most. Every limit is per window, so a
// blocked client waits at most one window (Retry-After says how long).
const DEFAULT_RATE_LIMITS: RateLimitSettings = Object.freeze({
  login_per_ip: { max: 100, windowSeconds: 15 * 60 },
  signup_per_ip: { max: 20, windowSeconds: 60 * 60 },
  // A reset is asked for as often as a log-in fails; the per-email limit keeps an inbox from
  // being flooded, and counts unknown addresses too, so a 429 reveals no account.
  password_reset_per_ip: { max: 100, windowSeconds: 15 * 60 },
  password_reset_per_email: { max: 5, windowSeconds: 60 * 60 },
  verification_mail_per_user: { max: 5, windowSeconds: 60 * 60 },
  checkout_per_ip: { max: 30, windowSeconds: 10 * 60 },
  checkout_per_price: { max: 600, windowSeconds: 10 * 60 },
  kyc_widget_per_ip: { max: 120, windowSeconds: 60 },
  kyc_widget_per_token: { max: 60, windowSeconds: 60 },
  shopper_code_per_ip: { max: 50, windowSeconds: 15 * 60 },
  shopper_code_per_email: { max: 5, windowSeconds: 15 * 60 },
  shopper_session_per_ip: { max: 30, windowSeconds: 15 * 60 },
});

/** What each limit counts, for the rate-limit guide of the API's documentation (guides.ts). */
export const RATE_LIMIT_SUBJECTS: Readonly<Record<keyof RateLimitSettings, string>> = Object.freeze({
  login_per_ip: "Log-ins (`POST /auth/login`, `/auth/login/2fa`) from one client address",
  signup_per_ip: "Sign-ups (`POST /auth/signup`) from one client address",
  password_reset_per_ip:
    "Password reset mails (`POST /auth/password-reset`) asked for from one client address",
  password_reset_per_email: "Password reset mails asked for one email address, whoever asks, known or not",
  verification_mail_per_user: "Verification mails one account asks to be sent again",
  checkout_per_ip:
    "Payments opened on hosted checkout pages (`POST /checkout/{price_id}/payments`) from one client address",
  checkout_per_price: "Payments opened on one price's hosted checkout, from anywhere",
  kyc_widget_per_ip: "Requests to the hosted KYC widget (`/kyc/{edit_token}…`) from one client address",
  kyc_widget_per_token: "Requests to one seller's KYC widget",
  shopper_code_per_ip: "Bid sign-in codes asked for (`…/shoppers/code`) from one client address",
  shopper_code_per_email: "Bid sign-in codes mailed to one address for one app",
  shopper_session_per_ip: "Bid sign-in codes tried (`…/shoppers/session`) from one client address",
});

/**
 * Reads `RATE_LIMITS`: comma-separated `name=max/seconds` overrides of the defaults, e.g.
 * `signup_per_ip=5/3600,login_per_ip=50/900`. Answers an error message for a bad value.
 */
export function parseRateLimits(text: string | undefined): RateLimitSettings | string {
  const settings: Record<string, Limit> = { ...DEFAULT_RATE_LIMITS };
  for (const part of (text ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([a-z_]+)=(\d{1,9})\/(\d{1,7})$/.exec(part);
    if (!match || !(match[1] in settings)) {
      return `"${part}" is not name=max/seconds with a name among ${Object.keys(settings).join(", ")}`;
    }
    const [max, windowSeconds] = [Number(match[2]), Number(match[3])];
    if (max < 1 || windowSeconds < 1) return `"${part}": max and seconds must be at least 1`;
    settings[match[1]] = { max, windowSeconds };
  }
  return settings as unknown as RateLimitSettings;
}

/** The per-account log-in back-off, for the documentation: free failures, and the longest wait. */
export const LOGIN_BACKOFF = Object.freeze({ freeFailures: 5, maxSeconds: 15 * 60 });

// Log-in back-off per account: five wrong passwords cost nothing, then each further one doubles the
// wait before the next try (2 s, 4 s, … up to 15 minutes). A guesser gets about 100 tries a day; a
// person who mistypes never notices. A success clears the run.
const FREE_FAILURES = LOGIN_BACKOFF.freeFailures;
const MAX_BACKOFF_SECONDS = LOGIN_BACKOFF.maxSeconds;
// A run of failures is forgotten after a day without one.
const FAILURE_MEMORY_MS = 24 * 3600_000;

function tooMany(retryAfterSeconds: number, detail: string): AppError {
  return new AppError("rate_limited", detail, {
    headers: { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });
}

/** The one rate limiter: counters in the database, shared by every process. */
/**
 * The client a per-address limit counts: an IPv4 address (an IPv4-mapped IPv6 one as its IPv4), or
 * an IPv6 address's /64. One IPv6 subscriber is routinely given a whole /64 and can pick a fresh
 * address from it for every request; counted per address, a per-address limit would never bite.
 */
export function addressGroup(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(":")}::/64`;
}

export class RateLimiter {
  readonly #db: Database;
  readonly #now: () => Date;
  readonly settings: RateLimitSettings;

  constructor(db: Database, now: () => Date, settings: RateLimitSettings) {
    this.#db = db;
    this.#now = now;
    this.settings = settings;
  }

  /**
   * Counts a hit under `key` and refuses with 429 (and `Retry-After`) past the limit named. One
   * statement: a new window starts when the last one is over. Pass `db` to count inside a
   * transaction (the hit then commits or vanishes with the caller's change).
   */
  async hit(name: keyof RateLimitSettings, key: string, db: Executor = this.#db): Promise<void> {
    const limit = this.settings[name];
    if (name.endsWith("_per_ip")) key = addressGroup(key);
    const now = this.#now();
    const windowOver = sql`${rateLimitCounters.windowStart} <= ${new Date(now.getTime() - limit.windowSeconds * 1000)}`;
    const [row] = await db
      .insert(rateLimitCounters)
      .values({ key: `${name}:${key}`, windowStart: now, hits: 1, lastHitAt: now })
      .onConflictDoUpdate({
        target: rateLimitCounters.key,
        set: {
          hits: sql`case when ${windowOver} then 1 else ${rateLimitCounters.hits} + 1 end`,
          windowStart: sql`case when ${windowOver} then ${now} else ${rateLimitCounters.windowStart} end`,
          lastHitAt: now,
        },
      })
      .returning({ hits: rateLimitCounters.hits, windowStart: rateLimitCounters.windowStart });
    if (row.hits > limit.max) {
      const endsAt = row.windowStart.getTime() + limit.windowSeconds * 1000;
      throw tooMany((endsAt - now.getTime()) / 1000, "Too many requests: wait a moment and try again");
    }
  }

  /** Refuses with 429 while `key`'s run of failures still has it waiting (log-in back-off). */
  async checkBackoff(key: string): Promise<void> {
    const [row] = await this.#db
      .select()
      .from(rateLimitCounters)
      .where(eq(rateLimitCounters.key, `backoff:${key}`));
    if (!row || row.hits < FREE_FAILURES) return;
    const now = this.#now().getTime();
    if (now - row.lastHitAt.getTime() > FAILURE_MEMORY_MS) return;
    const wait = Math.min(MAX_BACKOFF_SECONDS, 2 ** (row.hits - FREE_FAILURES + 1));
    const until = row.lastHitAt.getTime() + wait * 1000;
    if (now < until) {
      throw tooMany((until - now) / 1000, "Too many failed attempts: wait before trying again");
    }
  }

  /** Records one more failure in `key`'s run. */
  async recordFailure(key: string): Promise<void> {
    const now = this.#now();
    const forgotten = sql`${rateLimitCounters.lastHitAt} <= ${new Date(now.getTime() - FAILURE_MEMORY_MS)}`;
    await this.#db
      .insert(rateLimitCounters)
      .values({ key: `backoff:${key}`, windowStart: now, hits: 1, lastHitAt: now })
      .onConflictDoUpdate({
        target: rateLimitCounters.key,
        set: {
          hits: sql`case when ${forgotten} then 1 else ${rateLimitCounters.hits} + 1 end`,
          lastHitAt: now,
        },
      });
  }

  /** Ends `key`'s run of failures (a successful log-in). */
  async clearFailures(key: string): Promise<void> {
    await this.#db.delete(rateLimitCounters).where(eq(rateLimitCounters.key, `backoff:${key}`));
  }
}

/** Deletes counters nobody has hit for a day, hourly, so the table holds only live windows. */
export function purgeRateLimitCountersJob(db: Database, now: () => Date): JobDefinition<object> {
  return {
    name: "platform.purge-rate-limit-counters",
    schedule: "41 * * * *",
    async handle() {
      await db
        .delete(rateLimitCounters)
        .where(lt(rateLimitCounters.lastHitAt, new Date(now().getTime() - FAILURE_MEMORY_MS)));
    },
  };
}
