import { type Static, Type } from "typebox";
import { oneOf } from "../../platform/http/literals.ts";
import { pageFields } from "../../platform/http/pagination.ts";
import { nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Timestamp } from "../../platform/http/schemas.ts";
import { EVENT_PATTERNS } from "./event-schemas.ts";
import { EVENT_TYPES } from "./event-types.ts";

/** How long the event log keeps an event (retention.ts), in days: Stripe's 30. */
export const EVENT_RETENTION_DAYS = 30;

/**
 * An event of the log: the JSON each delivery of it carries, as it is delivered. `data` is left
 * open here so the answer is the stored payload byte for byte (a closed schema would drop any field
 * it does not name); each type's payload is described in the document's `webhooks` section.
 */
export const Event = Type.Object(
  {
    id: Type.String({ description: "The event's id (`evt_…`), also the `webhook-id` of its deliveries" }),
    type: oneOf(EVENT_TYPES, { description: "The event type" }),
    timestamp: Timestamp,
    app_id: Type.String({ description: "The app it happened in" }),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description: "The payload: the event type's schema in the document's `webhooks` section",
    }),
  },
  {
    description: `Something that happened in an app, as its webhooks deliver it; kept ${EVENT_RETENTION_DAYS} days`,
  },
);

const TypeFilter = Type.Optional(
  Type.Unsafe<(typeof EVENT_PATTERNS)[number]>({
    type: "string",
    enum: [...EVENT_PATTERNS],
    description: "Only events of this type, or of a family (`payment.*`); `*` is every type",
  }),
);

export const ListEventsQuery = Type.Object(
  {
    ...pageFields,
    type: TypeFilter,
    "created[gte]": Type.Optional(
      Type.String({ format: "date-time", description: "Only events that happened at or after this instant" }),
    ),
    "created[lte]": Type.Optional(
      Type.String({
        format: "date-time",
        description: "Only events that happened at or before this instant",
      }),
    ),
  },
  { additionalProperties: false },
);
export type EventFilters = Pick<Static<typeof ListEventsQuery>, "type" | "created[gte]" | "created[lte]">;

const id = (description: string) => Type.String({ maxLength: 64, description });
export const EventParams = Type.Object({ app_id: id("The app's id"), event_id: id("The event's id") });

export const StreamQuery = Type.Object(
  {
    after: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          "Replay the events that came after this one first (an event id), then go on live; the " +
          "`Last-Event-ID` header, which a reconnecting EventSource sends, takes precedence",
      }),
    ),
    type: TypeFilter,
  },
  { additionalProperties: false },
);

export const StreamHeaders = Type.Object({
  "last-event-id": Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: "The id of the last event received: the stream resumes after it",
    }),
  ),
});

withExamples(Event, {
  id: "evt_01m87s3v8k4r2fjc23vtvkbtjx",
  type: "payment.paid",
  timestamp: "2026-11-24T21:31:00.000Z",
  app_id: "app_01m87s3v8h13edjthr38t9cfv8",
  data: {
    id: "pay_01m87s3v8k4r2fjc23vtvkbtjw",
    status: "paid",
    previous_status: "hold",
    reason: "provider_paid",
    sequence: 3,
  },
});

nameSchemas({ Event });
