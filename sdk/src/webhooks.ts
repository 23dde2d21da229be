import { Webhook } from "standardwebhooks";

/**
 * Checks a delivery's signature (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) with the endpoint's secret (`whsec_…`) and answers the event. Throws when the
 * signature is wrong or the timestamp is more than five minutes off. Pass the body exactly as
 * received (the raw text), not a re-serialised object.
 */
export function verifyWebhook<T = WebhookEvent>(
  payload: string,
  headers: Record<string, string | string[] | undefined> | Headers,
  secret: string,
): T {
  const flat: Record<string, string> = {};
  const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return new Webhook(secret).verify(payload, flat) as T;
}

/** An event as the service delivers it. */
export interface WebhookEvent {
  id: string;
  type: string;
  /** When the event happened (ISO 8601). */
  timestamp: string;
  app_id: string;
  data: Record<string, unknown>;
}
