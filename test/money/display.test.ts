import assert from "node:assert/strict";
import { test } from "node:test";
import { findCurrency } from "../../src/platform/money/currencies.ts";
import { formatMoney } from "../../src/platform/money/display.ts";

test("amounts read per currency, every digit kept", () => {
  const money = (minor: bigint, code: string) => formatMoney(minor, findCurrency(code)!);
  assert.equal(money(2575n, "usd"), "$25.75");
  assert.equal(money(2500n, "eur"), "€25.00");
  assert.equal(money(1500n, "jpy"), "¥1,500");
  assert.equal(money(1500n, "kwd"), "KWD\u00a01.500");
  assert.equal(money(1_500_000_000_000_000_000_000_000n, "near"), "1.5 NEAR");
  assert.equal(money(123456789012345678901234567n, "usd"), "$1,234,567,890,123,456,789,012,345.67");
});
