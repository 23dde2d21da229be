import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { hashToken } from "../../platform/auth/secrets.ts";
import { appRecord, updateAppRecord } from "../../platform/http/app-record.ts";
import { AppError } from "../../platform/http/errors.ts";
import { newId, newSecret } from "../../platform/ids.ts";
import { requireAppRole } from "../apps/access.ts";
import { SHOPPER_CODE_JOB } from "./job-names.ts";
import { presentShopper } from "./presenters.ts";
import { auctions, shopperCodes, shopperSessions, shoppers } from "./tables.ts";

// A 6-digit code has a million values: 5 tries per code, 5 codes per email per quarter hour (the
// `shopper_code_per_email` rate limit) and 10 minutes of life keep a guesser's odds near 1 in
// 40,000 per quarter hour.
const CODE_TTL_MS = 10 * 60 * 1000;
const CODE_ATTEMPTS = 5;
const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export interface ShopperCodeMail {
  email: string;
  /** The code's row, whose sealed code the job opens; jobs queued before it carried `code`. */
  codeId?: string;
  code?: string;
  auctionName: string;
  /** For the link back to the auction's page; absent on jobs queued before it was added. */
  auctionId?: string;
  appId?: string;
}

/** The sealing context binds a sealed code to its row. */
export const shopperCodeContext = (codeId: string) => `shopper-code:${codeId}`;

export function sealShopperCode(custody: Deps["custody"], codeId: string, code: string): string {
  return custody.sealText(shopperCodeContext(codeId), code);
}

const codeHash = (codeId: string, code: string) =>
  createHash("sha256").update(`${codeId}:${code}`).digest("base64url");

async function auctionOf(deps: Deps, appId: string, auctionId: string) {
  return appRecord(deps.db, auctions, appId, auctionId, "Auction");
}

export async function requestCode(deps: Deps, appId: string, auctionId: string, email: string, ip: string) {
  const auction = await auctionOf(deps, appId, auctionId);
  const address = email.toLowerCase();
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const id = newId("scd");
  await deps.db.transaction(async (tx) => {
    await deps.rateLimiter.hit("shopper_code_per_ip", ip, tx);
    await deps.rateLimiter.hit("shopper_code_per_email", `${appId}:${address}`, tx);
    // A new code replaces the previous ones, so only the latest mail works.
    await tx
      .update(shopperCodes)
      .set({ usedAt: deps.now() })
      .where(
        and(eq(shopperCodes.appId, appId), eq(shopperCodes.email, address), isNull(shopperCodes.usedAt)),
      );
    await tx.insert(shopperCodes).values({
      id,
      appId,
      email: address,
      codeHash: codeHash(id, code),
      codeSealed: sealShopperCode(deps.custody, id, code),
      expiresAt: new Date(deps.now().getTime() + CODE_TTL_MS),
      createdAt: deps.now(),
    });
    await deps.jobs.send<ShopperCodeMail>(tx, SHOPPER_CODE_JOB, {
      email: address,
      codeId: id,
      auctionName: auction.name,
      auctionId: auction.id,
      appId,
    });
  });
}

/** Trades a mailed code for a shopper token; wrong, used and expired codes all read the same. */
export async function openSession(
  deps: Deps,
  appId: string,
  auctionId: string,
  input: { email: string; code: string },
  ip: string,
) {
  await auctionOf(deps, appId, auctionId);
  const address = input.email.toLowerCase();
  const wrong = new AppError("unauthenticated", "The code is wrong, used or expired; ask for a new one");
  const token = newSecret("shp_");
  const now = deps.now();
  const outcome = await deps.db.transaction(async (tx) => {
    await deps.rateLimiter.hit("shopper_session_per_ip", ip, tx);
    const [code] = await tx
      .select()
      .from(shopperCodes)
      .where(
        and(
          eq(shopperCodes.appId, appId),
          eq(shopperCodes.email, address),
          isNull(shopperCodes.usedAt),
          gt(shopperCodes.expiresAt, now),
        ),
      )
      .orderBy(desc(shopperCodes.createdAt))
      .limit(1)
      .for("update");
    if (!code || code.attempts >= CODE_ATTEMPTS) return undefined;
    const expected = Buffer.from(code.codeHash);
    const actual = Buffer.from(codeHash(code.id, input.code));
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) {
      await tx
        .update(shopperCodes)
        .set({ attempts: code.attempts + 1 })
        .where(eq(shopperCodes.id, code.id));
      return undefined;
    }
    await tx.update(shopperCodes).set({ usedAt: now }).where(eq(shopperCodes.id, code.id));
    await tx
      .insert(shoppers)
      .values({ id: newId("shp"), appId, email: address, createdAt: now })
      .onConflictDoNothing();
    const [shopper] = await tx
      .select()
      .from(shoppers)
      .where(and(eq(shoppers.appId, appId), eq(shoppers.email, address)));
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    await tx
      .insert(shopperSessions)
      .values({ tokenHash: hashToken(token), shopperId: shopper.id, expiresAt });
    return { shopper, expiresAt };
  });
  // The failed attempt is counted (committed) before the refusal.
  if (!outcome) throw wrong;
  return { token, expires_at: outcome.expiresAt.toISOString(), shopper: presentShopper(outcome.shopper) };
}

/** The shopper a bearer token names, for this app, or 401. */
export async function authenticateShopper(deps: Deps, appId: string, authorization: string | undefined) {
  const token = /^Bearer (shp_[A-Za-z0-9_-]{20,100})$/.exec(authorization ?? "")?.[1];
  const refuse = new AppError(
    "unauthenticated",
    "Sign in as a shopper with a one-time code, then send its token",
  );
  if (!token) throw refuse;
  const [row] = await deps.db
    .select({ shopper: shoppers })
    .from(shopperSessions)
    .innerJoin(shoppers, eq(shoppers.id, shopperSessions.shopperId))
    .where(and(eq(shopperSessions.tokenHash, hashToken(token)), gt(shopperSessions.expiresAt, deps.now())));
  if (!row || row.shopper.appId !== appId) throw refuse;
  return row.shopper;
}

export async function setShopperDisabled(
  deps: Deps,
  actor: Principal,
  appId: string,
  shopperId: string,
  disabled: boolean,
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const row = await updateAppRecord(deps.db, shoppers, appId, shopperId, "Shopper", { disabled });
  return presentShopper(row);
}
