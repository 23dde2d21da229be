import { and, asc, eq, gt, ne } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Chain } from "../../platform/chains/accounts.ts";
import type { Envelope } from "../../platform/crypto/envelope.ts";
import { notFound } from "../../platform/http/errors.ts";
import { wallets } from "./tables.ts";

type WalletRow = typeof wallets.$inferSelect;

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
    type: row.type as Chain,
    networkId: row.networkId,
    testNetwork: row.testNetwork,
    accountId: row.accountId,
    publicKey: row.publicKey,
    permission: row.permission,
    secret: deps.custody.open(walletContext(row.id), envelopeOf(row)),
  };
}

/**
 * Re-wraps every wallet's data key under the current master key. Each row is updated only if it
 * still carries the envelope that was read, so a wallet patched meanwhile is not overwritten; it
 * is already under the current key anyway. Safe to run again after an interruption.
 */
export async function rewrapWalletSecrets(
  deps: Pick<Deps, "db" | "custody">,
  batchSize = 200,
): Promise<{ rewrapped: number }> {
  const current = deps.custody.keyring.current.id;
  let rewrapped = 0;
  let after = "";
  for (;;) {
    const rows = await deps.db
      .select()
      .from(wallets)
      .where(and(ne(wallets.secretKeyId, current), gt(wallets.id, after)))
      .orderBy(asc(wallets.id))
      .limit(batchSize);
    if (rows.length === 0) return { rewrapped };
    for (const row of rows) {
      const next = deps.custody.rewrap(walletContext(row.id), envelopeOf(row));
      if (!next) continue;
      const updated = await deps.db
        .update(wallets)
        .set(envelopeColumns(next))
        .where(and(eq(wallets.id, row.id), eq(wallets.secretWrappedKey, row.secretWrappedKey)))
        .returning({ id: wallets.id });
      rewrapped += updated.length;
    }
    after = rows[rows.length - 1].id;
  }
}
