import type { Deps } from "../../deps.ts";
import type { PaymentRow } from "./lifecycle.ts";

export interface PlannedTransfer {
  /** Stable name of the share, part of the transfer's idempotency key. */
  key: string;
  destination: string;
  amount: bigint;
}

/**
 * The shares a payment pays out once captured: the seller's share to the seller's connected
 * account when the price names a seller KYC record with an account. The app's and the platform's
 * shares stay on the platform account, which is where the charge lands.
 */
export async function plannedTransfers(deps: Deps, payment: PaymentRow): Promise<PlannedTransfer[]> {
  if (!payment.kycId || payment.sellerAmount <= 0n) return [];
  const destination = await deps.sellerAccounts?.(payment.kycId);
  if (!destination) return [];
  return [{ key: "seller", destination, amount: payment.sellerAmount }];
}
