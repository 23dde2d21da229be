const isoCurrencies = new Set(
  typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("currency") : [],
);

/**
 * An amount as the API sends it (major units: `12.5` is twelve fifty) in the viewer's locale.
 * ISO currencies get their symbol and minor digits; chain tokens (`eth`, `near`, …), which Intl does
 * not know, keep every decimal they carry and their code.
 */
export function formatMoney(amount: number | string, currency: string, locale?: string): string {
  const code = currency.toUpperCase();
  const value = typeof amount === "string" ? Number(amount) : amount;
  if (!Number.isFinite(value)) return `${amount} ${code}`;
  if (isoCurrencies.has(code)) {
    return new Intl.NumberFormat(locale, { style: "currency", currency: code }).format(value);
  }
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 18 }).format(value);
  return `${number} ${code}`;
}

export function Money({ amount, currency }: { amount: number | string; currency: string }) {
  return <span style={{ fontVariantNumeric: "tabular-nums" }}>{formatMoney(amount, currency)}</span>;
}
