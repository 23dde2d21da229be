import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Database, Tx } from "../../../db/index.ts";
import { invalid, notFound } from "../../../http/errors.ts";
import { newId } from "../../../ids.ts";
import type { CapabilityStatus } from "../../kyc/types.ts";
import {
  type ProviderTransfer,
  type ProviderTransferReversal,
  type ReverseTransferInput,
  type TransferInput,
  TransferRefusedError,
} from "../types.ts";
import { sandboxTransferReversals, sandboxTransfers } from "./tables.ts";

/**
 * How the payments sandbox knows the connected accounts: the KYC sandbox's accounts (Stripe keeps
 * Connect accounts and payments in one place; so does the sandbox, in the same database).
 * Undefined for an account the sandbox never made.
 */
export type ConnectedAccounts = (
  accountId: string,
  tx: Tx,
) => Promise<{ capabilities: Record<string, CapabilityStatus> } | undefined>;

/** Refuses, with Stripe's error codes, a destination that does not exist or cannot receive transfers. */
export async function checkDestination(
  tx: Tx,
  accounts: ConnectedAccounts,
  destination: string,
): Promise<void> {
  const account = await accounts(destination, tx);
  if (!account) throw new TransferRefusedError("resource_missing", `No such destination: '${destination}'`);
  if (account.capabilities.transfers !== "active") {
    throw new TransferRefusedError(
      "insufficient_capabilities_for_transfer",
      `The destination account '${destination}' cannot receive transfers: its transfers capability is not active`,
    );
  }
}

/** All the transfers from a charge together cannot exceed what it received less its refunds. */
export async function checkSourceLeft(
  tx: Tx,
  source: { id: string; amountReceived: bigint; amountRefunded: bigint },
  amount: bigint,
): Promise<void> {
  const [{ sent }] = await tx
    .select({ sent: sql<string>`coalesce(sum(${sandboxTransfers.amount}), 0)` })
    .from(sandboxTransfers)
    .where(eq(sandboxTransfers.sourceIntentId, source.id));
  if (BigInt(sent) + amount > source.amountReceived - source.amountRefunded) {
    throw invalid("/amount", "exceeds what is left of the source charge");
  }
}

export async function insertTransfer(tx: Tx, input: TransferInput, now: Date): Promise<ProviderTransfer> {
  const [transfer] = await tx
    .insert(sandboxTransfers)
    .values({
      id: newId("tr"),
      amount: input.amount,
      currency: input.currency.toLowerCase(),
      destination: input.destination,
      sourceIntentId: input.sourceIntentId ?? null,
      transferGroup: input.transferGroup ?? null,
      metadata: input.metadata ?? {},
      createdAt: now,
    })
    .returning();
  return {
    id: transfer.id,
    amount: transfer.amount,
    currency: transfer.currency,
    destination: transfer.destination,
    sourceIntentId: transfer.sourceIntentId,
  };
}

async function reversedOf(tx: Tx | Database, transferId: string): Promise<bigint> {
  const [{ reversed }] = await tx
    .select({ reversed: sql<string>`coalesce(sum(${sandboxTransferReversals.amount}), 0)` })
    .from(sandboxTransferReversals)
    .where(eq(sandboxTransferReversals.transferId, transferId));
  return BigInt(reversed);
}

/** Takes all (or `amount`) of what is left of a transfer back from its connected account. */
export async function insertReversal(
  tx: Tx,
  transferId: string,
  input: ReverseTransferInput,
  now: Date,
): Promise<ProviderTransferReversal> {
  const [transfer] = await tx
    .select()
    .from(sandboxTransfers)
    .where(eq(sandboxTransfers.id, transferId))
    .for("update");
  if (!transfer) throw notFound("Transfer");
  const remaining = transfer.amount - (await reversedOf(tx, transfer.id));
  if (remaining <= 0n) {
    throw new TransferRefusedError("transfer_already_reversed", "This transfer is already fully reversed");
  }
  const amount = input.amount ?? remaining;
  if (amount <= 0n || amount > remaining) {
    throw invalid("/amount", `must be positive and at most the ${remaining} not yet reversed`);
  }
  const [reversal] = await tx
    .insert(sandboxTransferReversals)
    .values({
      id: newId("trr"),
      transferId: transfer.id,
      amount,
      currency: transfer.currency,
      metadata: input.metadata ?? {},
      createdAt: now,
    })
    .returning();
  return { id: reversal.id, transferId: transfer.id, amount, currency: transfer.currency };
}

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

/**
 * Transfers as Stripe's API answers them (`GET /v1/transfers[/{id}]`): amounts in minor units,
 * `reversals` as a list. `source_transaction` names the sandbox intent the money came from (the
 * sandbox has no separate charge objects).
 */
export async function stripeTransfers(
  db: Database,
  filter: { id?: string; transferGroup?: string; destination?: string },
) {
  const conditions: SQL[] = [];
  if (filter.id) conditions.push(eq(sandboxTransfers.id, filter.id));
  if (filter.transferGroup) conditions.push(eq(sandboxTransfers.transferGroup, filter.transferGroup));
  if (filter.destination) conditions.push(eq(sandboxTransfers.destination, filter.destination));
  const transfers = await db
    .select()
    .from(sandboxTransfers)
    .where(and(...conditions))
    .orderBy(asc(sandboxTransfers.createdAt), asc(sandboxTransfers.id))
    .limit(100);
  const reversals = transfers.length
    ? await db
        .select()
        .from(sandboxTransferReversals)
        .where(
          inArray(
            sandboxTransferReversals.transferId,
            transfers.map((t) => t.id),
          ),
        )
        .orderBy(asc(sandboxTransferReversals.createdAt), asc(sandboxTransferReversals.id))
    : [];
  return transfers.map((transfer) => {
    const own = reversals.filter((r) => r.transferId === transfer.id);
    const reversed = own.reduce((sum, r) => sum + r.amount, 0n);
    return {
      id: transfer.id,
      object: "transfer" as const,
      amount: Number(transfer.amount),
      amount_reversed: Number(reversed),
      currency: transfer.currency,
      created: seconds(transfer.createdAt),
      destination: transfer.destination,
      metadata: transfer.metadata as Record<string, string>,
      reversed: reversed === transfer.amount,
      reversals: {
        object: "list" as const,
        data: own.map((r) => ({
          id: r.id,
          object: "transfer_reversal" as const,
          amount: Number(r.amount),
          currency: r.currency,
          created: seconds(r.createdAt),
          metadata: r.metadata as Record<string, string>,
          transfer: transfer.id,
        })),
        has_more: false,
        total_count: own.length,
        url: `/v1/transfers/${transfer.id}/reversals`,
      },
      source_transaction: transfer.sourceIntentId,
      transfer_group: transfer.transferGroup,
    };
  });
}
