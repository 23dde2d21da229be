import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { wallets } from "./tables.ts";

/**
 * What another module's table may point at with a foreign key: a wallet's id, and nothing else of
 * the wallets table. That table says `.references(walletPrimaryKey, { onDelete: … })` instead of
 * importing this module's tables.ts, which no other module does (test/platform/layers.test.ts,
 * docs/decisions.md).
 */
export const walletPrimaryKey = (): AnyPgColumn => wallets.id;
