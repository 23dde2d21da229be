import assert from "node:assert/strict";
import { test } from "node:test";
import { findCurrency } from "../../src/platform/money/currencies.ts";
import { StaticRates } from "../../src/platform/money/rates.ts";
import { ratioToNumber } from "../../src/platform/money/rational.ts";

const near = findCurrency("near")!;
const usd = findCurrency("usd")!;
const eur = findCurrency("eur")!;

test("the static table answers configured rates, their exact inverses, and identity", async () => {
  const rates = new StaticRates([{ from: "near", to: "usd", ratio: { num: 325n, den: 100n } }]);
  assert.deepEqual((await rates.quote(near, usd))?.ratio, { num: 325n, den: 100n });
  const inverse = await rates.quote(usd, near);
  assert.deepEqual(inverse?.ratio, { num: 100n, den: 325n });
  assert.equal(ratioToNumber(inverse!.ratio), 0.307692307692);
  assert.deepEqual((await rates.quote(usd, usd))?.ratio, { num: 1n, den: 1n });
  assert.equal(await rates.quote(eur, usd), undefined);
});

test("a configured opposite rate wins over the inverse", async () => {
  const rates = new StaticRates([
    { from: "eur", to: "usd", ratio: { num: 108n, den: 100n } },
    { from: "usd", to: "eur", ratio: { num: 92n, den: 100n } },
  ]);
  assert.deepEqual((await rates.quote(usd, eur))?.ratio, { num: 92n, den: 100n });
});
