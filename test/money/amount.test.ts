import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { AppError } from "../../src/platform/http/errors.ts";
import { formatAmount, formatAmountText, parseAmount } from "../../src/platform/money/amount.ts";
import { currencyOf, findCurrency, knownCurrencies } from "../../src/platform/money/currencies.ts";

const usd = currencyOf("usd", "c");
const jpy = currencyOf("jpy", "c");
const kwd = currencyOf("kwd", "c");
const eth = currencyOf("eth", "c");
const near = currencyOf("near", "c");

function refused(fn: () => unknown, path: string, message: RegExp) {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof AppError);
    assert.equal(error.status, 400);
    assert.equal(error.errors?.[0].path, path);
    assert.match(error.errors?.[0].message ?? "", message);
    return true;
  });
}

describe("currencies", () => {
  test("standard exponents, codes in any case answered lower case", () => {
    const expected = { usd: 2, eur: 2, gbp: 2, jpy: 0, kwd: 3, bhd: 3, near: 24, eth: 18, sol: 9, wax: 8 };
    for (const [code, exponent] of Object.entries(expected)) {
      assert.equal(findCurrency(code.toUpperCase())?.exponent, exponent, code);
      assert.equal(findCurrency(code.toUpperCase())?.code, code);
    }
    assert.equal(findCurrency("Pol")?.exponent, 18);
    assert.equal(findCurrency("usdc")?.exponent, 6);
  });

  test("an unknown currency is a 400 naming the field", () => {
    refused(() => currencyOf("xyz", "/body/currency"), "/body/currency", /unknown currency/);
  });
});

describe("parseAmount", () => {
  test("reads numbers through their decimal text, never through float arithmetic", () => {
    assert.equal(parseAmount(12.5, usd, "/a"), 1250n);
    assert.equal(parseAmount(0.1, usd, "/a"), 10n);
    // 0.29 * 100 is 28.999999999999996 in floating point; the text "0.29" is exactly 29 cents.
    assert.equal(parseAmount(0.29, usd, "/a"), 29n);
    assert.equal(parseAmount(1.005, kwd, "/a"), 1005n);
    assert.equal(parseAmount(1500, jpy, "/a"), 1500n);
    assert.equal(parseAmount(0, usd, "/a"), 0n);
  });

  test("exponent notation is exact", () => {
    assert.equal(String(1e-7), "1e-7");
    assert.equal(parseAmount(1e-7, near, "/a"), 10n ** 17n);
    assert.equal(parseAmount(1e-18, eth, "/a"), 1n);
    assert.equal(String(1.5e21), "1.5e+21");
    assert.equal(parseAmount(1.5e21, usd, "/a"), 15n * 10n ** 22n);
    assert.equal(parseAmount(2.5e-7, near, "/a"), 25n * 10n ** 16n);
  });

  test("decimal strings carry precision a JSON number cannot", () => {
    // The JSON number the brief names loses digits on parsing, which is why strings are accepted.
    assert.notEqual(String(JSON.parse("1234567.123456789012345678")), "1234567.123456789012345678");
    assert.equal(parseAmount("1234567.123456789012345678", eth, "/a"), 1234567123456789012345678n);
    assert.equal(parseAmount("0.000000000000000000000001", near, "/a"), 1n);
    assert.equal(parseAmount("12.50", usd, "/a"), 1250n);
  });

  test("refuses excess decimals, negatives, non-finite values and malformed text, naming the field", () => {
    refused(() => parseAmount(12.345, usd, "/body/amount"), "/body/amount", /more decimals than usd allows/);
    refused(() => parseAmount(1.5, jpy, "/body/amount"), "/body/amount", /at most 0/);
    refused(() => parseAmount(1e-19, eth, "/body/amount"), "/body/amount", /more decimals/);
    refused(() => parseAmount("0.0000000000000000001", eth, "/body/amount"), "/body/amount", /more decimals/);
    refused(() => parseAmount(-1, usd, "/body/amount"), "/body/amount", /negative/);
    refused(() => parseAmount(Number.NaN, usd, "/body/amount"), "/body/amount", /finite/);
    refused(() => parseAmount(Number.POSITIVE_INFINITY, usd, "/body/amount"), "/body/amount", /finite/);
    refused(() => parseAmount("-1", usd, "/body/amount"), "/body/amount", /decimal number/);
    refused(() => parseAmount("1e5", usd, "/body/amount"), "/body/amount", /decimal number/);
    refused(() => parseAmount("", usd, "/body/amount"), "/body/amount", /decimal number/);
    refused(() => parseAmount(1e31, usd, "/body/amount"), "/body/amount", /less than/);
  });
});

describe("formatAmount", () => {
  test("answers major units", () => {
    assert.equal(formatAmount(1250n, usd), 12.5);
    assert.equal(formatAmount(5n, usd), 0.05);
    assert.equal(formatAmount(1500n, jpy), 1500);
    assert.equal(formatAmountText(10n ** 24n + 1n, near), "1.000000000000000000000001");
    assert.equal(formatAmountText(0n, near), "0");
  });

  // Every exponent the table uses, so each currency's shift is exercised.
  const exponents = [...new Set(knownCurrencies().map((c) => c.exponent))].sort((a, b) => a - b);

  test("property: parse(format(x)) == x for every currency exponent, as a JSON number", () => {
    for (const exponent of exponents) {
      const currency = knownCurrencies().find((c) => c.exponent === exponent)!;
      // A JSON number (a double) holds any decimal of up to 15 significant digits exactly.
      fc.assert(
        fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }), fc.nat({ max: 15 }), (digits, scale) => {
          const x = digits * 10n ** BigInt(scale);
          if (x >= 10n ** BigInt(30 + exponent)) return;
          const json = JSON.parse(JSON.stringify(formatAmount(x, currency)));
          assert.equal(parseAmount(json, currency, "/a"), x);
        }),
        { numRuns: 1000 },
      );
    }
  });

  test("property: parse(formatText(x)) == x for every currency exponent, any precision", () => {
    for (const exponent of exponents) {
      const currency = knownCurrencies().find((c) => c.exponent === exponent)!;
      fc.assert(
        fc.property(fc.bigInt({ min: 0n, max: 10n ** BigInt(30 + exponent) - 1n }), (x) => {
          assert.equal(parseAmount(formatAmountText(x, currency), currency, "/a"), x);
        }),
        { numRuns: 1000 },
      );
    }
  });
});
