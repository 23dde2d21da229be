import { Type } from "typebox";
import { oneOf } from "../../platform/http/literals.ts";
import { pageFields } from "../../platform/http/pagination.ts";
import { exampleOf, nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Body, Nullable, Timestamp } from "../../platform/http/schemas.ts";
import { EVENT_PATTERNS } from "./event-schemas.ts";
import { EVENT_TYPES, TEST_EVENT_TYPE } from "./event-types.ts";

/** An event type, `prefix.*` or `*`: an enum in the document, so a typo does not type-check. */
const EventPattern = (description?: string) =>
  Type.Unsafe<(typeof EVENT_PATTERNS)[number]>({ type: "string", enum: [...EVENT_PATTERNS], description });

import { AppAndIdParams } from "../../platform/http/params.ts";
import { DELIVERY_STATUSES } from "./tables.ts";

export const Endpoint = Type.Object(
  {
    id: Type.String({ description: "The endpoint's id (`wh_…`)" }),
    app_id: Type.String({ description: "The app whose events it receives" }),
    url: Type.String({ description: "Where deliveries are POSTed" }),
    events: Type.Array(EventPattern(), {
      description: "The event types it receives: types, `prefix.*` or `*`",
    }),
    enabled: Type.Boolean({
      description:
        "Whether it receives deliveries. A disabled endpoint gets no delivery of the events emitted " +
        "while it is disabled, and its deliveries already queued wait, unattempted, until it is " +
        "enabled again (docs/webhooks.md)",
    }),
    secret: Nullable(
      Type.String({
        description:
          "The Standard Webhooks signing secret (`whsec_…`): answered once, when the endpoint is " +
          "created or its secret rotated; null afterwards",
      }),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: "An endpoint that receives the app's events, signed (Standard Webhooks)" },
);

export const Attempt = Type.Object(
  {
    status_code: Nullable(
      Type.Integer({ description: "The endpoint's HTTP status; null when no HTTP answer came" }),
    ),
    duration_ms: Type.Integer({ description: "How long the attempt took, in milliseconds" }),
    error: Nullable(
      Type.String({
        description: "Why the attempt failed (network error, timeout, status); null on success",
      }),
    ),
    response_excerpt: Nullable(Type.String({ description: "At most the first 256 characters" })),
    attempted_at: Timestamp,
  },
  { description: "One try at delivering an event" },
);

export const Delivery = Type.Object(
  {
    id: Type.String({ description: "The delivery's id (`whd_…`)" }),
    endpoint_id: Type.String({ description: "The endpoint it goes to" }),
    event: Type.Object(
      {
        id: Type.String({ description: "The event's id (`evt_…`), also the `webhook-id` header" }),
        type: Type.String({ description: "The event type, e.g. `payment.paid`" }),
        created_at: Timestamp,
      },
      { description: "The event delivered" },
    ),
    request_body: Type.String({
      description:
        "The JSON every attempt POSTed, byte for byte: `{id, type, timestamp, app_id, data}` (docs/webhooks.md)",
    }),
    status: oneOf(DELIVERY_STATUSES, {
      description:
        "`pending` before the first attempt; `retrying` after a failed one; `failed` after the last",
    }),
    attempt_count: Type.Integer({ description: "Attempts made so far" }),
    replay_of: Nullable(Type.String({ description: "The delivery this one replays" })),
    delivered_at: Nullable(
      Type.String({ format: "date-time", description: "When the endpoint accepted it; null until then" }),
    ),
    attempts: Type.Array(Attempt, { description: "Every attempt, oldest first" }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: "One event's delivery to one endpoint, with every attempt" },
);

export const EndpointParams = AppAndIdParams("id", "The endpoint's id");
export const DeliveryParams = AppAndIdParams("delivery_id", "The delivery's id");

/** A delivery log's event filter: one type (the test event's too) or a whole family. */
const DELIVERY_EVENT_FILTERS = [
  ...EVENT_TYPES,
  TEST_EVENT_TYPE,
  ...new Set(EVENT_TYPES.map((type) => `${type.split(".")[0]}.*`)),
];

export const ListDeliveriesQuery = Type.Object(
  {
    ...pageFields,
    status: Type.Optional(oneOf(DELIVERY_STATUSES, { description: "Only deliveries in this status" })),
    type: Type.Optional(
      Type.Unsafe<string>({
        type: "string",
        enum: DELIVERY_EVENT_FILTERS,
        description: "Only deliveries of this event type, or of a family (`payment.*`)",
      }),
    ),
  },
  { additionalProperties: false },
);

export const CreateEndpointBody = Body({
  url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: "http(s) URL on a public address; private, loopback and link-local ones are refused",
  }),
  events: Type.Array(EventPattern(), {
    minItems: 1,
    maxItems: 50,
    uniqueItems: true,
    description: `Event types, \`prefix.*\` or \`*\`. Types: ${EVENT_TYPES.join(", ")}`,
  }),
  enabled: Type.Optional(
    Type.Boolean({
      default: true,
      description: "false to register it disabled: it receives nothing until enabled (PATCH)",
    }),
  ),
});

withExamples(Endpoint, {
  id: "wh_01m87s3v8k4r2fjc23vtvkbtjt",
  app_id: "app_01m87s3v8h13edjthr38t9cfv8",
  url: "https://shop.example.com/hooks/payments",
  events: ["payment.*", "kyc.updated"],
  enabled: true,
  secret: "whsec_MfKQ9r3T1Ct5xLmV8qzr0uDw6pHj2bYs4nAe7GkoXc0=",
  created_at: "2026-11-24T21:30:00.000Z",
  updated_at: "2026-11-24T21:30:00.000Z",
});
withExamples(Attempt, {
  status_code: 200,
  duration_ms: 84,
  error: null,
  response_excerpt: "ok",
  attempted_at: "2026-11-24T21:31:00.500Z",
});
withExamples(Delivery, {
  id: "whd_01m87s3v8k4r2fjc23vtvkbtjv",
  endpoint_id: "wh_01m87s3v8k4r2fjc23vtvkbtjt",
  event: {
    id: "evt_01m87s3v8k4r2fjc23vtvkbtjx",
    type: "payment.paid",
    created_at: "2026-11-24T21:31:00.000Z",
  },
  request_body:
    '{"id":"evt_01m87s3v8k4r2fjc23vtvkbtjx","type":"payment.paid","timestamp":"2026-11-24T21:31:00.000Z","app_id":"app_01m87s3v8h13edjthr38t9cfv8","data":{"payment_id":"pay_01m87s3v8k4r2fjc23vtvkbtjm","status":"paid"}}',
  status: "succeeded",
  attempt_count: 1,
  replay_of: null,
  delivered_at: "2026-11-24T21:31:00.584Z",
  attempts: [exampleOf(Attempt)],
  created_at: "2026-11-24T21:31:00.000Z",
  updated_at: "2026-11-24T21:31:00.584Z",
});
withExamples(CreateEndpointBody, {
  url: "https://shop.example.com/hooks/payments",
  events: ["payment.*", "kyc.updated"],
});

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ WebhookEndpoint: Endpoint, DeliveryAttempt: Attempt, Delivery });
