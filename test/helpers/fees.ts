import { readFileSync } from "node:fs";
import { parseAmount } from "../../src/platform/money/amount.ts";
import { currencyOf } from "../../src/platform/money/currencies.ts";
import { type AppType, computeFees, type FeeInput } from "../../src/platform/money/fees.ts";
import { percentToBps } from "../../src/platform/money/percent.ts";
import { presentPriceItem } from "../../src/platform/money/price-item.ts";
import { ratioFromDecimal } from "../../src/platform/money/rational.ts";

/** One worked example of docs/fees.md, as its JSON block states it. */
export interface FeeExample {
  title: string;
  input: {
    amount: string;
    currency: string;
    charge_currency: string;
    rate: string | null;
    provider_processing_fee_percent: number;
    provider_min_amount_fee: string;
    platform_fee: number;
    app_fee: number;
    app_type: AppType;
  };
  price_item: unknown;
}

/** The worked examples, read from the document itself so the doc and the tests cannot drift. */
export function feeExamples(file = new URL("../../docs/fees.md", import.meta.url)): FeeExample[] {
  const text = readFileSync(file, "utf8");
  const examples: FeeExample[] = [];
  const pattern = /^### (Example .+)$[\s\S]*?^```json\n([\s\S]*?)^```$/gm;
  for (const match of text.matchAll(pattern)) {
    examples.push({ title: match[1], ...JSON.parse(match[2]) });
  }
  return examples;
}

export function feeInputOf(example: FeeExample["input"]): FeeInput {
  const priceCurrency = currencyOf(example.currency, "currency");
  const chargeCurrency = currencyOf(example.charge_currency, "charge_currency");
  return {
    amount: parseAmount(example.amount, priceCurrency, "amount"),
    priceCurrency,
    chargeCurrency,
    rate: example.rate === null ? undefined : ratioFromDecimal(example.rate),
    provider: {
      percentBps: percentToBps(example.provider_processing_fee_percent, "percent"),
      minFee: parseAmount(example.provider_min_amount_fee, chargeCurrency, "min"),
    },
    platformFeeBps: percentToBps(example.platform_fee, "platform_fee"),
    appFeeBps: percentToBps(example.app_fee, "app_fee"),
    appType: example.app_type,
  };
}

export function priceItemOf(example: FeeExample["input"]) {
  const input = feeInputOf(example);
  return presentPriceItem(input, computeFees(input));
}
