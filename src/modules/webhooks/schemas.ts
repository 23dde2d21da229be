import { Type } from "typebox";
import { oneOf } from "../../platform/http/literals.ts";
import { Body, Nullable, nameSchemas, Timestamp } from "../../platform/http/schemas.ts";
import { EVENT_TYPES } from "./event-types.ts";
import { DELIVERY_STATUSES } from "./tables.ts";

export const Endpoint = Type.Object({
  id: Type.String(),
  app_id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  secret: Nullable(
    Type.String({
      description:
        "The Standard Webhooks signing secret (`whsec_…`): answered once, when the endpoint is " +
        "created or its secret rotated; null afterwards",
    }),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const Attempt = Type.Object({
  status_code: Nullable(Type.Integer({ description: "Null when no HTTP answer came" })),
  duration_ms: Type.Integer(),
  error: Nullable(Type.String()),
  response_excerpt: Nullable(Type.String({ description: "At most the first 256 characters" })),
  attempted_at: Timestamp,
});

export const Delivery = Type.Object({
  id: Type.String(),
  endpoint_id: Type.String(),
  event: Type.Object({ id: Type.String(), type: Type.String(), created_at: Timestamp }),
  status: oneOf(DELIVERY_STATUSES),
  attempt_count: Type.Integer(),
  replay_of: Nullable(Type.String({ description: "The delivery this one replays" })),
  delivered_at: Nullable(Timestamp),
  attempts: Type.Array(Attempt, { description: "Every attempt, oldest first" }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const id = Type.String({ maxLength: 64 });
export const EndpointParams = Type.Object({ app_id: id, id });
export const DeliveryParams = Type.Object({ app_id: id, delivery_id: id });

export const CreateEndpointBody = Body({
  url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: "http(s) URL on a public address; private, loopback and link-local ones are refused",
  }),
  events: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
    minItems: 1,
    maxItems: 50,
    uniqueItems: true,
    description: `Event types, \`prefix.*\` or \`*\`. Types: ${EVENT_TYPES.join(", ")}`,
  }),
});

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ WebhookEndpoint: Endpoint, DeliveryAttempt: Attempt, Delivery });
