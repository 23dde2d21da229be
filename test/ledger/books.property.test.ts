import { test } from "node:test";
import fc from "fast-check";
import { checkBooks, lifeArb, live, SEED } from "../helpers/ledger-model.ts";

// The books after random lives of payments: the model and what it checks are in
// test/helpers/ledger-model.ts (seeded: FC_SEED=<n> replays a run; a failure prints its seed and
// path). The same model's batch goes through the database in test/ledger/books.test.ts.

test("random lives of payments leave balanced books that match their figures", () => {
  fc.assert(
    fc.property(fc.array(lifeArb, { minLength: 1, maxLength: 6 }), (lives) => {
      checkBooks(lives.map(([priced, steps], i) => live(i, priced, steps)));
    }),
    { seed: SEED, numRuns: 300 },
  );
});
