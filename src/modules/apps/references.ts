import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { apps } from "./tables.ts";

/**
 * What another module's table may point at with a foreign key: a app's id, and nothing else of
 * the apps table. That table says `.references(appPrimaryKey, { onDelete: … })` instead of
 * importing this module's tables.ts, which no other module does (test/platform/layers.test.ts,
 * docs/decisions.md).
 */
export const appPrimaryKey = (): AnyPgColumn => apps.id;
