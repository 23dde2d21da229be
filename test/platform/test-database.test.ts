// The test database's dump (test/helpers/database.ts) keeps only the WAL pages PostgreSQL needs:
// the archive it writes must still be a tar that tar itself reads, with the cut file's new size.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { truncatedTarEntry } from "../helpers/tar.ts";

test("a tar entry cut short is read by tar with its new size, the other entries whole", (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tar-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, "segment"), Buffer.alloc(40_000, 7));
  writeFileSync(path.join(dir, "after"), "the next entry");
  execFileSync("tar", ["--format=ustar", "-cf", "in.tar", "segment", "after"], { cwd: dir });

  const cut = truncatedTarEntry(new Uint8Array(readFileSync(path.join(dir, "in.tar"))), "segment", 8192);
  writeFileSync(path.join(dir, "out.tar"), cut);
  const listing = execFileSync("tar", ["-tvf", "out.tar"], { cwd: dir, encoding: "utf8" });
  assert.match(listing, /\s8192\s.*segment/);
  assert.equal(
    execFileSync("tar", ["-xOf", "out.tar", "after"], { cwd: dir, encoding: "utf8" }),
    "the next entry",
  );
  assert.deepEqual(execFileSync("tar", ["-xOf", "out.tar", "segment"], { cwd: dir }), Buffer.alloc(8192, 7));

  assert.throws(() => truncatedTarEntry(cut, "missing", 1), /no entry ending in missing/);
  assert.throws(() => truncatedTarEntry(cut, "segment", 9000), /fewer than/);
});
