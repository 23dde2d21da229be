import { invalid } from "../http/errors.ts";

export interface Currency {
  /** Lower-case code, as every answer carries it. */
  code: string;
  /** Decimal places of the minor unit: 2 for usd (cents), 0 for jpy, 24 for near (yoctoNEAR). */
  exponent: number;
  kind: "fiat" | "chain";
}

// ISO 4217 exponents (the "minor unit" column of the standard), for the currencies card and bank
// providers settle in. A code missing here is refused rather than guessed at.
// biome-ignore format: a table reads better than one code per line
const FIAT: Record<string, number> = {
  usd: 2, eur: 2, gbp: 2, chf: 2, cad: 2, aud: 2, nzd: 2, sek: 2, nok: 2, dkk: 2, pln: 2, czk: 2,
  huf: 2, ron: 2, bgn: 2, try: 2, ils: 2, aed: 2, sar: 2, qar: 2, inr: 2, cny: 2, hkd: 2, sgd: 2,
  twd: 2, thb: 2, myr: 2, php: 2, idr: 2, mxn: 2, brl: 2, ars: 2, cop: 2, pen: 2, zar: 2, egp: 2,
  ngn: 2, kes: 2, mad: 2, uah: 2,
  jpy: 0, krw: 0, clp: 0, isk: 0, vnd: 0, pyg: 0, ugx: 0, rwf: 0, xof: 0, xaf: 0, xpf: 0, kmf: 0,
  kwd: 3, bhd: 3, omr: 3, jod: 3, tnd: 3, lyd: 3, iqd: 3,
};

// Chain currencies by their smallest on-chain unit: yoctoNEAR, wei, lamports, WAX's 8 decimals,
// and the 6 decimals of the USDC/USDT token contracts.
// biome-ignore format: a table reads better than one code per line
const CHAIN: Record<string, number> = {
  near: 24, eth: 18, matic: 18, pol: 18, sol: 9, wax: 8, btc: 8, usdc: 6, usdt: 6,
};

function entries(table: Record<string, number>, kind: Currency["kind"]): [string, Currency][] {
  return Object.entries(table).map(([code, exponent]) => [code, { code, exponent, kind }]);
}

const TABLE: ReadonlyMap<string, Currency> = new Map([...entries(FIAT, "fiat"), ...entries(CHAIN, "chain")]);

/** Every currency the service knows, for documentation and tests. */
export function knownCurrencies(): Currency[] {
  return [...TABLE.values()];
}

/** The currency a code names, in any case; undefined when unknown. */
export function findCurrency(code: string): Currency | undefined {
  return TABLE.get(code.toLowerCase());
}

/** The currency a request names; an unknown code is a 400 naming the field. */
export function currencyOf(code: string, path: string): Currency {
  const currency = findCurrency(code);
  if (!currency) throw invalid(path, `unknown currency "${code}"`);
  return currency;
}
