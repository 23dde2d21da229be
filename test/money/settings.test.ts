import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError, loadConfig } from "../../src/config.ts";

test("money settings have documented defaults", () => {
  const { money } = loadConfig({});
  assert.equal(money.chargeCurrency.code, "usd");
  assert.equal(money.platformFeeBps, 100);
  assert.deepEqual(money.providers.card, { percentBps: 290, minFee: 30n });
  assert.deepEqual(money.providers.us_bank_account, { percentBps: 80, minFee: 0n });
  // The embedded default is sandbox mode, which carries illustrative rates; live mode has none.
  assert.ok(money.rates.some((r) => r.from === "near" && r.to === "usd"));
  assert.deepEqual(
    loadConfig({ SANDBOX: "false", PAYMENTS_PROVIDER: "sandbox", SMTP_URL: "smtp://127.0.0.1:2525" }).money
      .rates,
    [],
  );
});

test("money settings are read exactly", () => {
  const { money } = loadConfig({
    CHARGE_CURRENCY: "EUR",
    PLATFORM_FEE_PERCENT: "2.25",
    CARD_PROCESSING_FEE_PERCENT: "1.4",
    CARD_MIN_AMOUNT_FEE: "0.25",
    EXCHANGE_RATES: "NEAR:eur=3.1, usd:eur=0.925",
  });
  assert.equal(money.chargeCurrency.code, "eur");
  assert.equal(money.platformFeeBps, 225);
  assert.deepEqual(money.providers.card, { percentBps: 140, minFee: 25n });
  assert.deepEqual(money.rates, [
    { from: "near", to: "eur", ratio: { num: 31n, den: 10n } },
    { from: "usd", to: "eur", ratio: { num: 925n, den: 1000n } },
  ]);
});

test("a bad money setting stops start-up naming the setting", () => {
  const bad: Record<string, string> = {
    CHARGE_CURRENCY: "near",
    PLATFORM_FEE_PERCENT: "100",
    CARD_PROCESSING_FEE_PERCENT: "2.999",
    CARD_MIN_AMOUNT_FEE: "0.301",
    US_BANK_ACCOUNT_MIN_AMOUNT_FEE: "-1",
    EXCHANGE_RATES: "near=3",
  };
  for (const [setting, value] of Object.entries(bad)) {
    assert.throws(
      () => loadConfig({ [setting]: value }),
      (error: unknown) => error instanceof ConfigError && error.setting === setting,
      setting,
    );
  }
  assert.throws(() => loadConfig({ EXCHANGE_RATES: "xyz:usd=1" }), /EXCHANGE_RATES/);
});
