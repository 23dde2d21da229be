import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { users } from "./tables.ts";

/**
 * What another module's table may point at with a foreign key: a user's id, and nothing else of
 * the users table. That table says `.references(userPrimaryKey, { onDelete: … })` instead of
 * importing this module's tables.ts, which no other module does (test/platform/layers.test.ts,
 * docs/decisions.md).
 */
export const userPrimaryKey = (): AnyPgColumn => users.id;
