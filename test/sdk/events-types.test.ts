// Webhook events are typed by the document's `webhooks` section: a union told apart by `type`, each
// with its own `data`; an endpoint's `events` is an enum, so a misspelt type does not compile.
// Type-checked by `npx tsc --noEmit` (the @ts-expect-error lines fail it if they stop being errors),
// and run here against the document.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  type EventPattern,
  type EventType,
  signTestWebhook,
  verifyWebhook,
  type WebhookEvent,
} from "../../sdk/src/index.ts";
import { EVENT_TYPES } from "../../src/modules/webhooks/event-types.ts";
import { useTestApp } from "../helpers/fixture.ts";

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const fx = useTestApp({}, { tenants: false });

test("a verified event narrows by type: payment.paid's data has the payment's id and status", () => {
  const sent = {
    id: "evt_1",
    type: "payment.paid",
    timestamp: new Date().toISOString(),
    app_id: "app_1",
    data: { id: "pay_1", status: "paid", previous_status: "pending", reason: "provider_paid", sequence: 2 },
  } satisfies WebhookEvent;
  const { payload, headers } = signTestWebhook(sent, secret);
  const event = verifyWebhook(payload, headers, secret);
  let fulfilled = "";
  if (event.type === "payment.paid") fulfilled = event.data.id;
  if (event.type === "kyc.updated") {
    const enabled: boolean = event.data.payouts_enabled;
    assert.fail(`not a kyc event ${enabled}`);
  }
  assert.equal(fulfilled, "pay_1");
  // @ts-expect-error a misspelt pattern is not an EventPattern
  const wrong: EventPattern = "payment.paiid";
  const right: EventPattern[] = ["payment.*", "kyc.updated", "*"];
  assert.ok(wrong && right.length === 3);
});

test("the document's webhooks section has one schema per event type (and the test event)", async () => {
  const doc = fx.app.app.swagger() as { webhooks: Record<string, { post: Record<string, any> }> };
  const types: EventType[] = Object.keys(doc.webhooks) as EventType[];
  assert.deepEqual(types.sort(), [...EVENT_TYPES, "webhook.test"].sort());
  for (const [type, item] of Object.entries(doc.webhooks)) {
    const ref = item.post.requestBody.content["application/json"].schema.$ref as string;
    assert.match(ref, /^#\/components\/schemas\/\w+Event$/, type);
  }
  const endpoint = (fx.app.app.swagger() as any).components.schemas.WebhookEndpoint;
  assert.ok(endpoint.properties.events.items.enum.includes("payment.*"), "events is an enum with patterns");
});
