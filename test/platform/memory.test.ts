import assert from "node:assert/strict";
import { test } from "node:test";
import pino from "pino";
import { loadMallocTrim, startMemoryTrim } from "../../src/platform/memory.ts";

// The idle embedded process stays under 250 MB only because glibc's free memory is handed back
// (docs/benchmarks.md, "Memory given back, 2026-11-25"). If koffi or glibc's symbol went missing, trimming
// would silently stop; on Linux with glibc this fails instead, saying why.
test("on Linux with glibc, malloc_trim is found and runs", {
  skip: process.platform !== "linux" && "glibc is Linux only",
}, async () => {
  const trim = await loadMallocTrim();
  assert.equal(typeof trim, "function", `malloc_trim was not loaded: ${trim}`);
  const returned = (trim as (pad: number) => number)(0);
  assert.ok(
    returned === 0 || returned === 1,
    `malloc_trim answers 1 (memory given back) or 0, not ${returned}`,
  );
});

test("MEMORY_TRIM_SECONDS=0 turns trimming off; otherwise it runs on a timer that does not hold the process", async () => {
  const lines: string[] = [];
  const logger = pino({ level: "debug" }, { write: (line: string) => lines.push(line) });
  const off = await startMemoryTrim(0, logger);
  off.stop();
  assert.equal(lines.length, 0, "nothing is loaded or logged when off");
  const on = await startMemoryTrim(60, logger);
  on.stop();
  const said = lines.map((line) => JSON.parse(line).msg);
  assert.deepEqual(
    said,
    process.platform === "linux" ? ["memory trim on"] : ["memory trim unavailable; nothing to do"],
  );
});
