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

/**
 * Answers this process is to lose, by operation (a test control: `transfer`, `refund`,
 * `reverse_transfer`, `capture_intent`, …): the sandbox makes the call and its answer never
 * arrives, as when a connection resets after the request went out, so the caller cannot know
 * whether anything was made. Per process, as a fault between one process and the provider is; a
 * repeat under the same key is answered what was made.
 */
export class LostAnswers {
  readonly #left = new Map<string, number>();

  /** The next `count` answers to `operation` are lost. */
  lose(operation: string, count: number) {
    this.#left.set(operation, count);
  }

  /** `answer`, unless `operation`'s answer is to be lost: then it throws as an unreachable provider. */
  deliver<T>(operation: string, answer: T): T {
    const left = this.#left.get(operation) ?? 0;
    if (left === 0) return answer;
    this.#left.set(operation, left - 1);
    throw providerUnavailable("The connection to the sandbox payment provider was reset before its answer");
  }
}
