// The hosted pages' formatting script (src/platform/pages/browser-format.ts) run as the page runs
// it: its source text, evaluated. The auction page's browser tests see the countdown ten minutes
// ahead (their auctions end by the owner's call); every other form of the time left is read here.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FORMAT_SCRIPT } from "../../src/platform/pages/browser-format.ts";

const timeLeft = new Function(`${FORMAT_SCRIPT}\nreturn timeLeft;`)() as (ms: number) => string;

test("the time left reads in the largest two units, seconds alone in the last minute", () => {
  const cases: [number, string][] = [
    [-5_000, "0 s"],
    [999, "0 s"],
    [5_400, "5 s"],
    [59_999, "59 s"],
    [60_000, "1 min 00 s"],
    [65_000, "1 min 05 s"],
    [599_000, "9 min 59 s"],
    [3_600_000, "1 h 00 min"],
    [3_725_000, "1 h 02 min"],
    [86_400_000, "1 d 0 h"],
    [90_000_000, "1 d 1 h"],
  ];
  for (const [ms, text] of cases) assert.equal(timeLeft(ms), text, `${ms} ms`);
});
