import type { Tx } from "../../platform/db/index.ts";
import { newId } from "../../platform/ids.ts";
import { kycEvents } from "./tables.ts";

/**
 * Records a KYC history event in the transaction that makes the change, so the event exists
 * exactly when the change does. Outbound delivery is the webhooks module's `emitEvent`, called
 * beside this one (see sync.ts).
 */
export async function emitEvent(tx: Tx, appId: string, type: string, payload: Record<string, unknown>) {
  const id = newId("evt");
  const kycId = typeof payload.kyc_id === "string" ? payload.kyc_id : null;
  await tx.insert(kycEvents).values({ id, appId, kycId, type, payload });
  return id;
}
