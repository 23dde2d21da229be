import { createHash } from "node:crypto";

/*
 * Names for prepared statements, from their text. PostgreSQL parses and plans a named statement
 * once per connection and then only binds values to it; an unnamed one is parsed and planned on
 * every run. A statement built from a template (an update whose `set` and guard depend on the
 * call, a provider's read) has a handful of texts, each repeated for ever: planning them again on
 * every run was a quarter of the database's CPU in a lifecycle run (docs/benchmarks.md, "Every
 * repeated statement prepared").
 */

interface Known {
  readonly text: string;
  readonly name: string;
}

/**
 * Texts of one length: a text is built afresh for every request, and hashing the create's 6 KB
 * (a Map keyed by text) cost about 10 µs a create, comparing it with a known one about 2
 * (docs/benchmarks.md, "The statement's name").
 */
class TextsByLength<T extends { text: string }> {
  private readonly byLength = new Map<number, T[]>();
  size = 0;

  find(text: string): T | undefined {
    const sameLength = this.byLength.get(text.length);
    if (sameLength) {
      for (const found of sameLength) if (found.text === text) return found;
    }
    return undefined;
  }

  add(entry: T): T {
    const sameLength = this.byLength.get(entry.text.length);
    if (sameLength) sameLength.push(entry);
    else this.byLength.set(entry.text.length, [entry]);
    this.size++;
    return entry;
  }

  clear() {
    this.byLength.clear();
    this.size = 0;
  }
}

/**
 * Named texts kept at most. Each is a prepared statement on every connection that ran it (some
 * kilobytes of the server's memory each, for the connection's life); the texts a process repeats
 * are a few hundred shapes, met in its first minutes, so a caller that varied its text endlessly
 * stops being named here instead of growing every connection.
 */
const MAX_NAMED = 1000;
const names = new TextsByLength<Known>();

/**
 * Texts sent once so far (`repeatedName`), forgotten all together when this many: a text that
 * repeats is met again long before, and one that never does (a value written into it) only passes.
 */
const MAX_SEEN_ONCE = 1000;
const seenOnce = new TextsByLength<{ text: string }>();

function nameOf(text: string): Known | undefined {
  if (names.size >= MAX_NAMED) return undefined;
  return names.add({ text, name: `s_${createHash("sha256").update(text).digest("base64url").slice(0, 22)}` });
}

/**
 * The prepared statement's name for `text`, and the text to send with it (the one first seen, so
 * pg's own check that a name keeps its text compares a string with itself); unnamed once
 * MAX_NAMED texts are named.
 */
export function named(text: string): { text: string; name: string | undefined } {
  return names.find(text) ?? nameOf(text) ?? { text, name: undefined };
}

/**
 * `named` for a statement the caller did not name: named from its second run on, undefined on its
 * first (a text sent once, as a migration's, is never prepared).
 */
export function repeatedName(text: string): Known | undefined {
  const known = names.find(text);
  if (known) return known;
  if (seenOnce.find(text)) return nameOf(text);
  if (seenOnce.size >= MAX_SEEN_ONCE) seenOnce.clear();
  seenOnce.add({ text });
  return undefined;
}
