import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import type { Database } from "../../platform/db/index.ts";
import { expiringMapPer } from "../../platform/expiring-map.ts";
import { SerializedAnswer, serializerOf } from "../../platform/http/serializers.ts";
import type { PriceRow } from "../prices/presenters.ts";
import { hasTransfers, paymentFor, present } from "./reads.ts";
import { Payment } from "./schemas.ts";

// The GET by id's answer, remembered as the text it was sent as. A read of a payment this process
// answered before reads the versions of what the answer is made from (the payment row's `xmin`,
// new with every change to it; its app's version, raised by every change to the app, its members,
// its creator and its prices; the price's count of views) in one statement of three rows by their
// keys, and sends the same text again while they are unchanged: without reading the payment's
// columns, presenting them and serializing the answer, a fifth of the route's work
// (docs/benchmarks.md, "A payment's answer, remembered by the versions it was made from").

/** The answer `text`, as made for a caller of `role` from rows at `stamp`, true until `validUntil`. */
interface Remembered {
  stamp: string;
  role: string;
  /** Epoch ms: when the price's `expires_at` passes, its `expired` turns true (presentPrice). */
  validUntil: number;
  text: string;
}

// A memory bound, not a freshness one: every use compares the stamp read with it. Up to about 2 kB
// a payment; the payment token is in the text, as it is in the tokens opened (payment-token.ts).
const remembered = expiringMapPer<Database, string, Remembered>({ ttlMs: 60_000, maxEntries: 1000 });

const serializePayment = serializerOf(Payment);

/** Until when an answer showing `price` says what it says of it: its expiry, if still to come. */
function validUntil(price: PriceRow, now: Date): number {
  const expiresAt = price.expiresAt?.getTime();
  return !price.expired && expiresAt !== undefined && expiresAt > now.getTime() ? expiresAt : Infinity;
}

/**
 * Payment `paymentId` of `appId` as `actor` reads it (GET by id), as the text the route sends. The
 * refusals are `paymentFor`'s, checked on every read, remembered answer or not.
 */
export async function getPayment(deps: Deps, actor: Principal, appId: string, paymentId: string) {
  const answers = remembered(deps.db);
  const kept = answers.get(paymentId);
  if (kept) {
    const { role, stamp } = await paymentFor(deps, actor, appId, paymentId, "view", "stamp");
    if (kept.stamp === stamp && kept.role === role && deps.now().getTime() < kept.validUntil) {
      return new SerializedAnswer(kept.text);
    }
  }
  const { payment, known, role, stamp } = await paymentFor(deps, actor, appId, paymentId, "view", "answer");
  const text = serializePayment(await present(deps, actor, payment, known));
  // Transfers are read from the books, whose rows change without the payment's: not remembered.
  if (!hasTransfers(payment)) {
    answers.set(paymentId, { stamp, role, validUntil: validUntil(known.price, deps.now()), text });
  }
  return new SerializedAnswer(text);
}
