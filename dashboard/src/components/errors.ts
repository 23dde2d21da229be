import { ApiError, ConnectionError } from "@payments-backend/sdk";

/** What a failed call means to a person: a sentence, whether trying again can help, and a reference. */
export interface Explained {
  /** A title a person understands ("We can't reach the service"), never a machine code. */
  title: string;
  /** The problem's own `detail` (and the fields it names), or a sentence of ours where it has none. */
  detail: string;
  /** Whether the same call may work if tried again (a lost connection, a busy service). */
  retryable: boolean;
  /** The request id, for a support request; shown small, never instead of the sentence. */
  reference?: string;
}

/** A thing that changed since the page showed it: said as such, and never worth retrying as is. */
export class StaleError extends Error {
  override name = "StaleError";
}

/** Titles by the problem's family: the service's `detail` says the rest in words. */
const TITLES: Record<string, string> = {
  validation_failed: "Some details need fixing",
  unauthenticated: "Please sign in again",
  forbidden: "You don't have access to this",
  not_found: "This no longer exists, or isn't yours to see",
  conflict: "This can't be done right now",
  invalid_state_transition: "This can't be done in its current state",
  idempotency_key_reused: "This request was already used for something else",
  seller_not_payable: "The seller can't be paid yet",
  rate_limited: "Too many requests: wait a moment",
  payment_declined: "The payment was declined",
  provider_unavailable: "The payment provider isn't answering",
  chain_unavailable: "The blockchain node isn't answering",
  request_timeout: "The request took too long",
};

/** A chunk of the console that failed to load: a new deployment or a lost connection. */
export function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module/i.test(
      error.message,
    )
  );
}

/** Whether the failure is the service being out of reach (not an answer it gave). */
export function isUnreachable(error: unknown): boolean {
  if (error instanceof ConnectionError || isChunkLoadError(error)) return true;
  // A bare fetch (not through the SDK) rejects with a TypeError whose text varies by browser.
  return error instanceof TypeError && /Failed to fetch|NetworkError|Load failed/i.test(error.message);
}

/** Every failure the console shows goes through here, so each reads as a sentence. */
export function explainError(error: unknown): Explained {
  if (error instanceof ApiError) {
    const fields = error.errors.map((field) => `${fieldName(field.path)}: ${field.message}`);
    const detail = fields.length > 0 ? fields.join(". ") : sentence(readablePointer(error.message));
    const retryable = error.status >= 500 || error.status === 429 || error.status === 408;
    const title =
      TITLES[error.code] ?? (error.status >= 500 ? "The service had a problem" : "That didn't work");
    return { title, detail, retryable, reference: error.requestId };
  }
  if (error instanceof StaleError) {
    return { title: "This changed since the page showed it", detail: error.message, retryable: false };
  }
  if (isUnreachable(error)) {
    return {
      title: "We can't reach the service",
      detail:
        "Check your connection. This page tries again by itself and recovers as soon as the service answers.",
      retryable: true,
    };
  }
  return {
    title: "Something unexpected happened",
    detail: error instanceof Error ? sentence(error.message) : String(error),
    retryable: true,
  };
}

/** `/body/amount` -> `amount`: the field a person typed, not the path in the request. */
function fieldName(path: string): string {
  const last = path.split("/").filter(Boolean).pop() ?? path;
  return last.replaceAll("_", " ");
}

/**
 * A detail that starts with the field it is about (`/body/amount: only 5 USD … remains`), as a
 * person reads it (`Amount: only 5 USD … remains`).
 */
function readablePointer(detail: string): string {
  const match = /^\/(?:body|query|params)\/([\w/]+): (.*)$/s.exec(detail.trim());
  if (!match) return detail;
  const name = fieldName(match[1]);
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}: ${match[2]}`;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return "No further detail was given.";
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
