import { PaymentsError } from "./errors.ts";
import { equalInConstantTime, fromBase64, hmacSha256, toBase64 } from "./hmac.ts";
import type { components, webhooks } from "./openapi.ts";

/** A delivery that is not provably the service's: bad or missing signature, stale timestamp, bad JSON. */
export class WebhookVerificationError extends PaymentsError {
  constructor(message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

/** How far a delivery's `webhook-timestamp` may be from now: five minutes, as Standard Webhooks says. */
const TOLERANCE_SECONDS = 5 * 60;

type HeaderBag = Record<string, string | string[] | undefined> | Headers;

const encoder = new TextEncoder();

function secretBytes(secret: string): Uint8Array {
  return fromBase64(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret);
}

function signature(secret: string, id: string, timestamp: number, payload: string): string {
  const signed = encoder.encode(`${id}.${timestamp}.${payload}`);
  return toBase64(hmacSha256(secretBytes(secret), signed));
}

function flatten(headers: HeaderBag): Record<string, string> {
  const flat: Record<string, string> = {};
  const entries: Iterable<[string, string | string[] | undefined]> =
    typeof Headers !== "undefined" && headers instanceof Headers
      ? headers.entries()
      : Object.entries(headers as Record<string, string | string[] | undefined>);
  for (const [name, value] of entries) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(" ") : value;
  }
  return flat;
}

/**
 * Checks a delivery's signature (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) with the endpoint's secret (`whsec_…`) and answers the event, typed by its
 * `type`. Throws `WebhookVerificationError` when the signature is wrong or missing, or the timestamp
 * is more than five minutes off. Pass the body exactly as received (the raw text), not a
 * re-serialised object.
 */
export function verifyWebhook<T = WebhookEvent>(
  payload: string,
  headers: HeaderBag,
  secret: string,
  options: { now?: Date } = {},
): T {
  const flat = flatten(headers);
  const id = flat["webhook-id"];
  const timestamp = flat["webhook-timestamp"];
  const signatures = flat["webhook-signature"];
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError("Missing webhook-* headers");
  const seconds = Number(timestamp);
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (!Number.isInteger(seconds)) throw new WebhookVerificationError("Invalid webhook-timestamp");
  if (Math.abs(now - seconds) > TOLERANCE_SECONDS) {
    throw new WebhookVerificationError("webhook-timestamp is more than five minutes from now");
  }
  let expected: string;
  try {
    expected = signature(secret, id, seconds, payload);
  } catch {
    throw new WebhookVerificationError("The secret is not a whsec_ base64 secret");
  }
  // Several signatures while a secret is rotated: any one of ours is enough.
  const ours = signatures
    .split(" ")
    .some((each) => each.startsWith("v1,") && equalInConstantTime(each.slice(3), expected));
  if (!ours) throw new WebhookVerificationError("No signature matches the secret");
  try {
    return JSON.parse(payload) as T;
  } catch {
    throw new WebhookVerificationError("The payload is not JSON");
  }
}

/** A signed delivery, as the service would send it: for testing your receiver. */
export interface SignedTestWebhook {
  /** The body to send, exactly. */
  payload: string;
  /** `webhook-id`, `webhook-timestamp`, `webhook-signature` and `content-type`. */
  headers: Record<string, string>;
}

/**
 * Signs an event (or any payload) with an endpoint secret the way the service signs deliveries, so
 * a test can post it to your receiver and `verifyWebhook` accepts it (like stripe-node's
 * `generateTestHeaderString`).
 */
export function signTestWebhook(
  event: WebhookEvent | string | object,
  secret: string,
  options: { id?: string; timestamp?: Date } = {},
): SignedTestWebhook {
  const payload = typeof event === "string" ? event : JSON.stringify(event);
  const id =
    options.id ?? (typeof event === "object" && "id" in event ? String(event.id) : `msg_test_${Date.now()}`);
  const seconds = Math.floor((options.timestamp ?? new Date()).getTime() / 1000);
  return {
    payload,
    headers: {
      "content-type": "application/json",
      "webhook-id": id,
      "webhook-timestamp": String(seconds),
      "webhook-signature": `v1,${signature(secret, id, seconds, payload)}`,
    },
  };
}

/** Every event type the service sends (the document's `webhooks` section). */
export type EventType = keyof webhooks;

/** The event of one type, e.g. `WebhookEventOf<"payment.paid">`, with its typed `data`. */
export type WebhookEventOf<T extends EventType> =
  NonNullable<webhooks[T]["post"]> extends { requestBody: { content: { "application/json": infer E } } }
    ? E
    : never;

/**
 * Any event as the service delivers it, a union told apart by `type`: after
 * `if (event.type === "payment.paid")`, `event.data` is that event's payload.
 */
export type WebhookEvent = { [T in EventType]: WebhookEventOf<T> }[EventType];

/** What an endpoint may subscribe to: an event type, `prefix.*` or `*`. */
export type EventPattern = components["schemas"]["WebhookEndpoint"]["events"][number];
