import { and, asc, eq, gt } from "drizzle-orm";
import type { AnyPgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Deps } from "../../deps.ts";
import type { Chain } from "../../platform/chains/adapter.ts";
import { type Envelope, envelopeFromText, envelopeToText } from "../../platform/crypto/envelope.ts";
import { resealColumn, type SealedColumn } from "../../platform/crypto/reseal.ts";
import type { Database } from "../../platform/db/index.ts";
import { notFound } from "../../platform/http/errors.ts";
import { wallets } from "./tables.ts";

type WalletRow = typeof wallets.$inferSelect;

/** A table that keeps a sealed key in the three envelope columns, as `wallets` does. */
type TextColumn = AnyPgColumn<{ data: string; notNull: true }>;
type EnvelopeTable = PgTable & {
  id: TextColumn;
  secretKeyId: TextColumn;
  secretWrappedKey: TextColumn;
  secretCiphertext: TextColumn;
};

/** Bound into both encryption layers, so a sealed key only opens on the wallet it was made for. */
export const walletContext = (walletId: string) => `wallet:${walletId}`;

export function envelopeOf(
  row: Pick<WalletRow, "secretKeyId" | "secretWrappedKey" | "secretCiphertext">,
): Envelope {
  return { keyId: row.secretKeyId, wrappedKey: row.secretWrappedKey, ciphertext: row.secretCiphertext };
}

export function envelopeColumns(envelope: Envelope) {
  return {
    secretKeyId: envelope.keyId,
    secretWrappedKey: envelope.wrappedKey,
    secretCiphertext: envelope.ciphertext,
  };
}

export interface WalletSecret {
  walletId: string;
  appId: string;
  type: Chain;
  networkId: string;
  testNetwork: boolean;
  accountId: string;
  publicKey: string | null;
  permission: string | null;
  /** The private key in the chain's text form: EVM 0x hex, Solana base58 64 bytes, NEAR `ed25519:…`, WAX `PVT_K1_…`. */
  secret: string;
}

/**
 * The wallet's private key, for the chain adapters that sign with it. Internal: no route answers
 * it, and callers must keep it out of logs and responses.
 */
export async function decryptWalletSecret(
  deps: Pick<Deps, "db" | "custody">,
  walletId: string,
): Promise<WalletSecret> {
  const [row] = await deps.db.select().from(wallets).where(eq(wallets.id, walletId));
  if (!row) throw notFound("Wallet");
  return {
    walletId: row.id,
    appId: row.appId,
    type: row.type,
    networkId: row.networkId,
    testNetwork: row.testNetwork,
    accountId: row.accountId,
    publicKey: row.publicKey,
    permission: row.permission,
    secret: deps.custody.open(walletContext(row.id), envelopeOf(row)),
  };
}

/**
 * The envelope columns of a table (wallets, Solana trees and collections) as one sealed column
 * for the reseal routine: each row's envelope in its text form, written back only where the row
 * still carries the wrapped key that was read (a wallet patched meanwhile is already under the
 * current key).
 */
export function envelopeColumn(
  db: Database,
  table: EnvelopeTable,
  context: (id: string) => string,
): SealedColumn {
  return {
    async page(after, limit) {
      const rows = await db
        .select({
          id: table.id,
          secretKeyId: table.secretKeyId,
          secretWrappedKey: table.secretWrappedKey,
          secretCiphertext: table.secretCiphertext,
        })
        .from(table)
        .where(gt(table.id, after))
        .orderBy(asc(table.id))
        .limit(limit);
      return rows.map((row) => ({
        key: row.id,
        context: context(row.id),
        sealed: envelopeToText(envelopeOf(row)),
      }));
    },
    async replace(value, next) {
      const previous = envelopeFromText(value.sealed);
      const updated = await db
        .update(table)
        .set(envelopeColumns(envelopeFromText(next)))
        .where(and(eq(table.id, value.key), eq(table.secretWrappedKey, previous.wrappedKey)))
        .returning({ id: table.id });
      return updated.length > 0;
    },
  };
}

/** Re-wraps every wallet's data key under the current master key (src/platform/crypto/reseal.ts). */
export async function rewrapWalletSecrets(
  deps: Pick<Deps, "db" | "custody">,
  batchSize?: number,
): Promise<{ rewrapped: number }> {
  return {
    rewrapped: await resealColumn(deps.custody, envelopeColumn(deps.db, wallets, walletContext), batchSize),
  };
}
