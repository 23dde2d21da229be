import assert from "node:assert/strict";
import { test } from "node:test";
import { feeExamples, priceItemOf } from "../helpers/fees.ts";

const examples = feeExamples();

test("docs/fees.md has its five worked examples", () => {
  assert.equal(examples.length, 5);
});

for (const example of examples) {
  test(`docs/fees.md ${example.title}`, () => {
    assert.deepEqual(priceItemOf(example.input), example.price_item);
  });
}
