import assert from "node:assert/strict";
import { test } from "node:test";
import { ExpiringMap } from "../../src/platform/expiring-map.ts";

test("an entry lapses after its time, and the oldest written goes first when full", () => {
  let clock = 0;
  const map = new ExpiringMap<string, number>({ ttlMs: 100, maxEntries: 2, now: () => clock });
  map.set("a", 1);
  clock = 50;
  map.set("b", 2);
  assert.equal(map.get("a"), 1);
  clock = 100;
  assert.equal(map.get("a"), undefined, "a lapsed 100 ms after it was written");
  assert.equal(map.get("b"), 2);
  map.set("b", 3); // rewritten: now the newest
  map.set("c", 4);
  map.set("d", 5); // full: the oldest written ("b" at 100, before "c") goes
  assert.deepEqual(
    [...map.entries()],
    [
      ["c", 4],
      ["d", 5],
    ],
  );
  map.delete("c");
  map.clear();
  assert.deepEqual([...map.entries()], []);
});
