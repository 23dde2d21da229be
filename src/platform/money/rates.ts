import type { Currency } from "./currencies.ts";
import { invert, type Ratio } from "./rational.ts";
import type { ConfiguredRate } from "./settings.ts";

export interface RateQuote {
  from: string;
  to: string;
  /** `to` major units per `from` major unit, exact. */
  ratio: Ratio;
  /** Where the rate came from, stored with the payment that used it. */
  source: string;
}

/** Where exchange rates come from. The default is a static table from the settings. */
export interface RatesProvider {
  /** The rate from one currency to another, or undefined when none is known. */
  quote(from: Currency, to: Currency): Promise<RateQuote | undefined>;
}

export class StaticRates implements RatesProvider {
  readonly #table = new Map<string, Ratio>();

  constructor(rates: ConfiguredRate[]) {
    for (const rate of rates) {
      this.#table.set(`${rate.from}:${rate.to}`, rate.ratio);
      // A configured rate also answers the opposite direction, unless that one is configured too.
      if (!rates.some((r) => r.from === rate.to && r.to === rate.from)) {
        this.#table.set(`${rate.to}:${rate.from}`, invert(rate.ratio));
      }
    }
  }

  async quote(from: Currency, to: Currency): Promise<RateQuote | undefined> {
    if (from.code === to.code)
      return { from: from.code, to: to.code, ratio: { num: 1n, den: 1n }, source: "identity" };
    const ratio = this.#table.get(`${from.code}:${to.code}`);
    return ratio && { from: from.code, to: to.code, ratio, source: "static" };
  }
}
