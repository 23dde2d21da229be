/** An exact positive ratio of two integers; exchange rates are kept this way, never as floats. */
export interface Ratio {
  num: bigint;
  den: bigint;
}

/** `n / d` rounded half-up, for n >= 0 and d > 0: the one rounding rule of money (docs/fees.md). */
export function divRoundHalfUp(n: bigint, d: bigint): bigint {
  return (2n * n + d) / (2n * d);
}

/** Exact decimal text (`"3.245"`, `"0.0001"`) to a ratio; undefined when the text is not one. */
export function ratioFromDecimal(text: string): Ratio | undefined {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return undefined;
  const fraction = match[2] ?? "";
  const ratio = { num: BigInt(match[1] + fraction), den: 10n ** BigInt(fraction.length) };
  return ratio.num > 0n ? ratio : undefined;
}

export function invert(ratio: Ratio): Ratio {
  return { num: ratio.den, den: ratio.num };
}

/**
 * A ratio as a JSON number. A decimal ratio (`3.245`) is exact; a repeating one (the inverse of a
 * configured rate) is given to 12 significant digits, which is display only: the stored ratio is
 * what the amounts were computed with.
 */
export function ratioToNumber(ratio: Ratio): number {
  const whole = ratio.num / ratio.den;
  let remainder = ratio.num % ratio.den;
  let fraction = "";
  let significant = whole === 0n ? 0 : whole.toString().length;
  while (remainder !== 0n && significant < 12) {
    remainder *= 10n;
    const digit = remainder / ratio.den;
    remainder %= ratio.den;
    fraction += digit.toString();
    if (significant > 0 || digit !== 0n) significant++;
  }
  return Number(`${whole}.${fraction || "0"}`);
}

// Math.max and Math.min take numbers only; money is bigint.
export function maxBig(a: bigint, b: bigint): bigint {
  if (a > b) return a;
  return b;
}

export function minBig(a: bigint, b: bigint): bigint {
  if (a < b) return a;
  return b;
}
