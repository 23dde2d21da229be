// The table moved to apps/tables.ts (see there why); payments/context.ts, which is being rewritten,
// still imports it from here. Every other file imports it from apps.
export { members } from "../apps/tables.ts";
