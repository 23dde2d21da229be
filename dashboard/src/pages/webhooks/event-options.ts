import { EVENT_TYPES } from "../../../../src/modules/webhooks/event-types.ts";

const families = [...new Set(EVENT_TYPES.map((type) => type.split(".")[0]))];

/** What an endpoint can subscribe to: everything, a whole family, or one event type. */
export const EVENT_OPTIONS = [
  { group: "Everything", items: [{ value: "*", label: "Every event (*)" }] },
  { group: "Families", items: families.map((family) => ({ value: `${family}.*`, label: `${family}.*` })) },
  { group: "Events", items: EVENT_TYPES.map((type) => ({ value: type, label: type })) },
];
