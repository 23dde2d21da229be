import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Executor, Tx } from "../../../db/index.ts";
import { notFound } from "../../../http/errors.ts";
import { newId } from "../../../ids.ts";
import {
  fromStripeIntent,
  reversalOf,
  type StripeIntentShape,
  type StripeReversalShape,
  toStripeIntent,
} from "../stripe-shape.ts";
import { badSignature, type ProviderEvent, type ProviderIntent } from "../types.ts";
import { sandboxEvents, type sandboxIntents } from "./tables.ts";

/**
 * The sandbox signs its webhooks like Stripe (`t=…,v1=…`, HMAC-SHA256 of "t.body") with a fixed,
 * public secret: sandbox events move no money, and every process must verify what another signed.
 */
export const SANDBOX_WEBHOOK_SECRET = "whsec_sandbox_not_secret";
const SANDBOX_SIGNATURE_HEADER = "sandbox-signature";
// Stripe's default tolerance: a captured request cannot be replayed after five minutes.
const TOLERANCE_SECONDS = 300;

function typeOf(intent: ProviderIntent): string {
  switch (intent.status) {
    case "requires_payment_method":
      return intent.lastError ? "payment_intent.payment_failed" : "payment_intent.created";
    case "requires_capture":
      return "payment_intent.amount_capturable_updated";
    default:
      return `payment_intent.${intent.status}`;
  }
}

/** The event row an intent's change writes: the intent as Stripe's webhook shows it. */
export function eventRow(
  row: typeof sandboxIntents.$inferSelect,
  intent: ProviderIntent,
  type = typeOf(intent),
): typeof sandboxEvents.$inferInsert {
  return {
    id: newId("evt"),
    type,
    intentId: row.id,
    account: row.account,
    data: toStripeIntent(intent),
    createdAt: row.updatedAt,
  };
}

export async function recordEvent(
  tx: Tx,
  row: typeof sandboxIntents.$inferSelect,
  intent: ProviderIntent,
  type = typeOf(intent),
): Promise<void> {
  await tx.insert(sandboxEvents).values(eventRow(row, intent, type));
}

/**
 * The `charge.failed` event Stripe sends when a collected bank debit is returned: the charge
 * object, with the bank's reason, naming its intent.
 */
export async function recordChargeFailed(
  tx: Tx,
  row: typeof sandboxIntents.$inferSelect,
  reason: { code: string; message: string },
): Promise<void> {
  const charge: StripeReversalShape & Record<string, unknown> = {
    id: `ch_${row.id.slice(3)}`,
    object: "charge",
    status: "failed",
    amount: Number(row.amount),
    currency: row.currency,
    payment_intent: row.id,
    payment_method_details: { type: row.method },
    failure_code: reason.code,
    failure_message: reason.message,
  };
  await tx.insert(sandboxEvents).values({
    id: newId("evt"),
    type: "charge.failed",
    intentId: row.id,
    account: row.account,
    data: charge,
    createdAt: row.updatedAt,
  });
}

function sign(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/** The request a webhook delivery of one sandbox event carries: its body and signature header. */
export async function signEvent(db: Executor, eventId: string, secret: string, now: Date) {
  const [event] = await db.select().from(sandboxEvents).where(eq(sandboxEvents.id, eventId));
  if (!event) throw notFound("Event");
  const body = JSON.stringify({
    id: event.id,
    object: "event",
    type: event.type,
    created: Math.floor(event.createdAt.getTime() / 1000),
    account: event.account || undefined,
    data: { object: event.data },
  });
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    body,
    headers: { [SANDBOX_SIGNATURE_HEADER]: `t=${timestamp},v1=${sign(secret, timestamp, body)}` },
  };
}

export function verifyEvent(
  rawBody: Buffer | string,
  headers: Record<string, string | string[] | undefined>,
  secret: string,
  now: Date,
): ProviderEvent {
  const header = headers[SANDBOX_SIGNATURE_HEADER];
  if (typeof header !== "string") throw badSignature();
  const parts = new Map(header.split(",").map((p) => p.split("=", 2) as [string, string]));
  const timestamp = Number(parts.get("t"));
  const given = Buffer.from(parts.get("v1") ?? "", "hex");
  const body = typeof rawBody === "string" ? rawBody : rawBody.toString("utf8");
  const expected = Buffer.from(sign(secret, timestamp, body), "hex");
  const fresh = Number.isFinite(timestamp) && Math.abs(now.getTime() / 1000 - timestamp) <= TOLERANCE_SECONDS;
  if (!fresh || given.length !== expected.length || !timingSafeEqual(given, expected)) throw badSignature();
  const event = JSON.parse(body) as {
    id: string;
    type: string;
    created: number;
    account?: string;
    data: { object: StripeIntentShape | StripeReversalShape };
  };
  const object = event.data.object;
  return {
    id: event.id,
    type: event.type,
    createdAt: new Date(event.created * 1000),
    intent: object.object === "payment_intent" ? fromStripeIntent(object as StripeIntentShape) : null,
    account: event.account ?? null,
    reversal: reversalOf(event.type, object as StripeReversalShape),
  };
}
