import { type Currency, findCurrency } from "./currencies.ts";
import { type Ratio, ratioFromDecimal } from "./rational.ts";

export const PAYMENT_PROVIDERS = ["card", "us_bank_account"] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

/** What a payment provider keeps: max(minFee, percent of the charge). */
export interface ProviderFee {
  percentBps: number;
  /** In minor units of the charge currency. */
  minFee: bigint;
}

export interface ConfiguredRate {
  from: string;
  to: string;
  /** `to` major units per `from` major unit. */
  ratio: Ratio;
}

/** The money settings (documented in docs/fees.md), validated at start-up with the rest. */
export interface MoneySettings {
  /** The currency shoppers are charged in by the card and bank providers. */
  chargeCurrency: Currency;
  platformFeeBps: number;
  /** The most one payment may charge, minor units of `chargeCurrency` (MAX_PAYMENT_AMOUNT). */
  maxPaymentAmount: bigint;
  providers: Record<PaymentProvider, ProviderFee>;
  rates: ConfiguredRate[];
}

type Env = Record<string, string | undefined>;
type Fail = (setting: string, message: string) => never;

// Illustrative rates so the sandbox can price in chain currencies out of the box; a live
// deployment sets EXCHANGE_RATES (or plugs in a live rates provider) and gets no made-up rates.
const SANDBOX_RATES =
  "near:usd=3.25,eth:usd=2500,sol:usd=150,wax:usd=0.05,pol:usd=0.5,usdc:usd=1,eur:usd=1.08";

function percentBps(env: Env, name: string, fallback: string, fail: Fail): number {
  const raw = env[name] || fallback;
  const match = /^(\d{1,2})(?:\.(\d{1,2}))?$/.exec(raw);
  if (!match) fail(name, `expected a percent from 0 to 99.99 with at most two decimals, got "${raw}"`);
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

function minFee(env: Env, name: string, fallback: string, currency: Currency, fail: Fail): bigint {
  const raw = env[name] || fallback;
  const match = /^(\d{1,9})(?:\.(\d+))?$/.exec(raw);
  const fraction = match?.[2] ?? "";
  if (!match || fraction.length > currency.exponent) {
    fail(name, `expected an amount in ${currency.code} with at most ${currency.exponent} decimals`);
  }
  return BigInt(match[1] + fraction.padEnd(currency.exponent, "0"));
}

/**
 * MAX_PAYMENT_AMOUNT, major units of the charge currency. By default just under a million
 * (999999.99 usd, 999999 jpy): card networks and Stripe stop about there, and every column and
 * JSON number that carries a charge stays exact far beyond it. At most 12 digits before the point,
 * so the amount in minor units is still an exact JSON number.
 */
function maxPaymentAmount(env: Env, currency: Currency, fail: Fail): bigint {
  const raw =
    env.MAX_PAYMENT_AMOUNT || `999999${currency.exponent > 0 ? `.${"9".repeat(currency.exponent)}` : ""}`;
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(raw);
  const fraction = match?.[2] ?? "";
  if (!match || fraction.length > currency.exponent) {
    fail(
      "MAX_PAYMENT_AMOUNT",
      `expected an amount in ${currency.code} below 10^12 with at most ${currency.exponent} decimals`,
    );
  }
  const minor = BigInt(match[1] + fraction.padEnd(currency.exponent, "0"));
  if (minor <= 0n) fail("MAX_PAYMENT_AMOUNT", "must be more than zero");
  return minor;
}

function rates(raw: string, fail: Fail): ConfiguredRate[] {
  if (raw.trim() === "") return [];
  return raw.split(",").map((entry) => {
    const match = /^\s*([a-zA-Z]+):([a-zA-Z]+)=([0-9.]+)\s*$/.exec(entry);
    const ratio = match ? ratioFromDecimal(match[3]) : undefined;
    if (!match || !ratio || !findCurrency(match[1]) || !findCurrency(match[2])) {
      fail("EXCHANGE_RATES", `expected entries like "near:usd=3.25" with known currencies, got "${entry}"`);
    }
    return { from: match[1].toLowerCase(), to: match[2].toLowerCase(), ratio };
  });
}

export function loadMoneySettings(env: Env, sandbox: boolean, fail: Fail): MoneySettings {
  const chargeCurrency = findCurrency(env.CHARGE_CURRENCY || "usd");
  if (chargeCurrency?.kind !== "fiat") fail("CHARGE_CURRENCY", "must be a fiat currency code");
  return {
    chargeCurrency,
    platformFeeBps: percentBps(env, "PLATFORM_FEE_PERCENT", "1", fail),
    maxPaymentAmount: maxPaymentAmount(env, chargeCurrency, fail),
    providers: {
      // Defaults follow Stripe's US list prices: cards 2.9% (with a $0.30 floor here, as the fee
      // model is max(min, percent)), ACH debits 0.8%.
      card: {
        percentBps: percentBps(env, "CARD_PROCESSING_FEE_PERCENT", "2.9", fail),
        minFee: minFee(env, "CARD_MIN_AMOUNT_FEE", "0.30", chargeCurrency, fail),
      },
      us_bank_account: {
        percentBps: percentBps(env, "US_BANK_ACCOUNT_PROCESSING_FEE_PERCENT", "0.8", fail),
        minFee: minFee(env, "US_BANK_ACCOUNT_MIN_AMOUNT_FEE", "0", chargeCurrency, fail),
      },
    },
    rates: rates(env.EXCHANGE_RATES ?? (sandbox ? SANDBOX_RATES : ""), fail),
  };
}
