import { invalid } from "../http/errors.ts";

/**
 * A percent as JSON carries it (`2.5`) to exact basis points (`250`), without float arithmetic:
 * the number's shortest decimal form is read as text. More than two decimals is refused.
 */
export function percentToBps(value: number, path: string, options: { max?: number } = {}): number {
  const max = options.max ?? 100;
  if (!Number.isFinite(value) || value < 0 || value >= max) {
    throw invalid(path, `must be at least 0 and less than ${max}`);
  }
  const text = String(value);
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) throw invalid(path, "must have at most two decimal places");
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/** Basis points back to the percent number JSON answers (`250` -> `2.5`). */
export function bpsToPercent(bps: number): number {
  return Number(`${Math.trunc(bps / 100)}.${String(bps % 100).padStart(2, "0")}`);
}
