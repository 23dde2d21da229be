import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { findCurrency, knownCurrencies } from "../../src/platform/money/currencies.ts";
import {
  computeFees,
  type FeeInput,
  type FeeResult,
  processingFee,
  sellerShareOk,
  smallestTotal,
} from "../../src/platform/money/fees.ts";

const fiat = knownCurrencies().filter((c) => c.kind === "fiat");
const all = knownCurrencies();

const provider = fc.record({
  percentBps: fc.integer({ min: 0, max: 9999 }),
  minFee: fc.bigInt({ min: 0n, max: 100_000n }),
});

const feeInput: fc.Arbitrary<FeeInput> = fc
  .record({
    priceCurrency: fc.constantFrom(...all),
    chargeCurrency: fc.constantFrom(...fiat),
    sameCurrency: fc.boolean(),
    // Up to 10^12 major units, whatever the exponent.
    digits: fc.bigInt({ min: 0n, max: 10n ** 12n }),
    scale: fc.nat({ max: 24 }),
    rateNum: fc.bigInt({ min: 1n, max: 10n ** 9n }),
    rateScale: fc.nat({ max: 9 }),
    provider,
    platformFeeBps: fc.integer({ min: 0, max: 9999 }),
    appFeeBps: fc.integer({ min: 0, max: 9999 }),
    appType: fc.constantFrom("individual" as const, "marketplace" as const),
  })
  .map((r) => {
    const priceCurrency = r.sameCurrency ? r.chargeCurrency : r.priceCurrency;
    return {
      amount: r.digits * 10n ** BigInt(Math.min(r.scale, priceCurrency.exponent)),
      priceCurrency,
      chargeCurrency: r.chargeCurrency,
      rate: { num: r.rateNum, den: 10n ** BigInt(r.rateScale) },
      provider: r.provider,
      platformFeeBps: r.platformFeeBps,
      appFeeBps: r.appFeeBps,
      appType: r.appType,
    };
  });

function checkInvariant(input: FeeInput, result: FeeResult) {
  const charged = result.amount;
  // The parts add up to the charge exactly.
  assert.equal(
    result.amount_total,
    result.processing_fee_amount +
      result.amount_app_transaction_fee +
      result.amount_platform +
      result.amount_app +
      result.amount_seller,
  );
  assert.equal(result.amount_transaction_fee, result.amount_total - charged);
  assert.equal(result.processing_fee_amount, processingFee(result.amount_total, input.provider));
  for (const part of [
    result.processing_fee_amount,
    result.amount_app_transaction_fee,
    result.amount_platform,
    result.amount_app,
    result.amount_transaction_fee,
  ]) {
    assert.ok(part >= 0n);
  }
  const appBps = input.appType === "marketplace" ? input.appFeeBps : 0;
  if (input.appType === "individual") assert.equal(result.amount_app, 0n);
  // Shares below 100% in total can never leave the seller negative, roundings included.
  if (input.platformFeeBps + appBps < 10_000) assert.ok(sellerShareOk(result));
  else
    assert.equal(
      sellerShareOk(result),
      result.amount_seller >= 0n && (result.conversion?.amount_seller ?? 0n) >= 0n,
    );
  // Minimal: the total covers the provider fee and the price, and one unit less does not.
  assert.ok(result.amount_total - result.processing_fee_amount >= charged);
  if (result.amount_total > 0n) {
    const less = result.amount_total - 1n;
    assert.ok(less - processingFee(less, input.provider) < charged);
  }
  const c = result.conversion;
  if (input.priceCurrency.code === input.chargeCurrency.code) {
    assert.equal(c, null);
    assert.equal(charged, input.amount);
    return;
  }
  assert.ok(c);
  assert.equal(c.amount, input.amount);
  assert.equal(c.converted_amount, charged);
  assert.equal(c.converted_amount_net, result.amount_seller);
  assert.equal(c.amount, c.amount_platform + c.amount_app + c.amount_seller);
  assert.equal(c.amount_total, c.amount + c.amount_transaction_fee);
  assert.ok(c.amount_transaction_fee >= 0n);
  assert.ok(c.amount_app_transaction_fee >= 0n && c.amount_app_transaction_fee <= c.amount_transaction_fee);
}

describe("fees", () => {
  test("property: parts add up, none negative, total minimal (10,000 cases)", () => {
    let runs = 0;
    let converted = 0;
    fc.assert(
      fc.property(feeInput, (input) => {
        runs++;
        const result = computeFees(input);
        if (result.conversion) converted++;
        checkInvariant(input, result);
      }),
      { numRuns: 10_000 },
    );
    assert.equal(runs, 10_000);
    // Both branches are exercised in earnest.
    assert.ok(converted > 2000 && converted < 8000, `converted ${converted}`);
  });

  test("property: the smallest total agrees with a brute-force search from zero", () => {
    // Percents up to 50% keep the linear search short.
    const smallProvider = fc.record({
      percentBps: fc.integer({ min: 0, max: 5000 }),
      minFee: fc.bigInt({ min: 0n, max: 1000n }),
    });
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 3000n }), smallProvider, (amount, fee) => {
        let total = 0n;
        while (total - processingFee(total, fee) < amount) total++;
        assert.equal(smallestTotal(amount, fee), total);
      }),
      { numRuns: 2000 },
    );
  });

  test("a marketplace whose fees reach 100% can leave the seller negative, and that is detected", () => {
    const usd = findCurrency("usd")!;
    const result = computeFees({
      amount: 1n,
      priceCurrency: usd,
      chargeCurrency: usd,
      provider: { percentBps: 290, minFee: 30n },
      platformFeeBps: 5000,
      appFeeBps: 5000,
      appType: "marketplace",
    });
    assert.equal(result.amount_seller, -1n);
    assert.equal(sellerShareOk(result), false);
  });

  test("a differing currency without a rate is a programming error, not a silent 1:1", () => {
    assert.throws(() =>
      computeFees({
        amount: 100n,
        priceCurrency: findCurrency("eur")!,
        chargeCurrency: findCurrency("usd")!,
        provider: { percentBps: 290, minFee: 30n },
        platformFeeBps: 100,
        appFeeBps: 0,
        appType: "individual",
      }),
    );
  });
});
