import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { TRANSITIONS } from "../../src/modules/payments/lifecycle.ts";

// docs/payments.md draws the payment's states as the list of moves `lifecycle.ts` allows: the
// drawing and the code must say the same, or a reader trusts a move the service refuses.
test("the States drawing in docs/payments.md is the transition table of lifecycle.ts", () => {
  const doc = readFileSync("docs/payments.md", "utf8");
  const section = doc.slice(doc.indexOf("## States"));
  const block = /```\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, "docs/payments.md has a drawing under ## States");
  const drawn: Record<string, string[]> = {};
  for (const line of block.trim().split("\n")) {
    const [from, to] = line.split("->").map((part) => part.trim());
    drawn[from] = to.split("|").map((state) => state.trim().replace(/\*+$/, ""));
  }
  const moves = Object.fromEntries(
    Object.entries(TRANSITIONS)
      .filter(([, to]) => to.length > 0)
      .map(([from, to]) => [from, [...to]]),
  );
  assert.deepEqual(drawn, moves);
});
