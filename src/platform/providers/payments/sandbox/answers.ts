import { PaymentDeclinedError, type ProviderIntent, providerUnavailable } from "../types.ts";
import type { OneStatement } from "./idempotency.ts";

/** The flag that puts the sandbox in outage mode, shared by every process through its table. */
export const OUTAGE = "outage";
export const OUTAGE_MESSAGE = "The sandbox payment provider is in outage mode";

type Declined = { declined: { declineCode: string; message: string; intent: ProviderIntent } };
/** What a sandbox call answers, and stores under its key: its result, or the decline it throws. */
export type Result<T> = { ok: T } | Declined;

/** A call's answer as the provider gives it: the result, or the outage or decline it throws. */
export function answerOf<T>(result: OneStatement<Result<T>>): T {
  if ("outage" in result) throw providerUnavailable(OUTAGE_MESSAGE);
  if ("declined" in result.answer) {
    const { declineCode, message, intent } = result.answer.declined;
    throw new PaymentDeclinedError(declineCode, message, intent);
  }
  return result.answer.ok;
}
