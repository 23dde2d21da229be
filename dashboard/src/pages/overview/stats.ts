/** The fields of a payment the overview reads. */
export interface PaymentFacts {
  status: string;
  created_at: string;
  price_item: { currency: string; amount_total: number };
  /** What has been given back so far (partial refunds add up); the whole charge once `refunded`. */
  amount_refunded: number;
}

export interface DayFigures {
  /** `YYYY-MM-DD` in the viewer's time zone. */
  day: string;
  count: number;
  succeeded: number;
  /** Per currency (upper case): what shoppers paid and kept paid (net of refunds), major units. */
  volume: Record<string, number>;
}

export interface CurrencyFigures {
  currency: string;
  count: number;
  /** Net of refunds, successful payments only. */
  volume: number;
  /** Every refund of the window's payments, partial or whole. */
  refunded: number;
}

export interface Overview {
  days: DayFigures[];
  currencies: CurrencyFigures[];
  total: number;
  succeeded: number;
  /** Payments refunded in full: finished, and not a success. */
  refunded: number;
  /** Finished payments that succeeded, 0 to 100; null when none has finished yet. */
  successRate: number | null;
}

/**
 * Paid, and kept: a payment refunded in full gave the money back, so it counts as neither a success
 * nor volume (it still counts as finished, so refunds lower the success rate). A partly refunded
 * payment is still `paid`: a success, whose volume is what was not given back.
 */
const SUCCEEDED = new Set(["paid"]);
/** Still under way: neither a success nor a failure yet, so left out of the success rate. */
const UNDER_WAY = new Set(["pending", "hold"]);

const dayOf = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;

/** Sums of major units kept free of binary-fraction noise (0.1 + 0.2). */
const add = (a: number, b: number) => Math.round((a + b) * 1e8) / 1e8;

/**
 * The last `days` days (today included) of payments, per local day: how many, how many
 * succeeded, and the volume per currency; with the totals per currency and the success rate.
 */
export function summarise(payments: PaymentFacts[], now: Date, days = 30): Overview {
  const byDay = new Map<string, DayFigures>();
  for (let back = days - 1; back >= 0; back--) {
    const date = new Date(now.getFullYear(), now.getMonth(), now.getDate() - back);
    const day = dayOf(date);
    byDay.set(day, { day, count: 0, succeeded: 0, volume: {} });
  }
  const currencies = new Map<string, CurrencyFigures>();
  let total = 0;
  let succeeded = 0;
  let refunded = 0;
  let finished = 0;
  for (const payment of payments) {
    const figures = byDay.get(dayOf(new Date(payment.created_at)));
    if (!figures) continue;
    const currency = payment.price_item.currency.toUpperCase();
    const success = SUCCEEDED.has(payment.status);
    total++;
    figures.count++;
    if (!UNDER_WAY.has(payment.status)) finished++;
    const perCurrency = currencies.get(currency) ?? { currency, count: 0, volume: 0, refunded: 0 };
    perCurrency.count++;
    perCurrency.refunded = add(perCurrency.refunded, payment.amount_refunded);
    if (payment.status === "refunded") refunded++;
    if (success) {
      const kept = add(payment.price_item.amount_total, -payment.amount_refunded);
      succeeded++;
      figures.succeeded++;
      figures.volume[currency] = add(figures.volume[currency] ?? 0, kept);
      perCurrency.volume = add(perCurrency.volume, kept);
    }
    currencies.set(currency, perCurrency);
  }
  return {
    days: [...byDay.values()],
    currencies: [...currencies.values()].sort((a, b) => b.count - a.count),
    total,
    succeeded,
    refunded,
    successRate: finished === 0 ? null : Math.round((succeeded / finished) * 1000) / 10,
  };
}
