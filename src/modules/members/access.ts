// The role check moved to apps/access.ts; payments/create.ts, which is being rewritten, still
// imports it from here. Every other file imports it from apps.
export { checkRole, requireAppRole } from "../apps/access.ts";
