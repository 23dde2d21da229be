import { sql } from "drizzle-orm";
import type { Database } from "../../platform/db/index.ts";
import { expiringMapPer } from "../../platform/expiring-map.ts";

/*
 * A part of an email, found on the trigram index without reading what every address shares
 * (docs/payments.md, "Finding payments"; docs/benchmarks.md, "The email's part the index reads").
 *
 * PostgreSQL's GIN index answers `lower(shopper_email) like '%shopper777@%'` by reading the posting
 * list of each of the pattern's trigrams. A trigram most addresses hold (`sho` of a shared word,
 * `gma` of a common domain) has a posting list as long as the table, and the index reads it whole:
 * at a million payments each such trigram costs about as much as the rest of the search. So the
 * index is given only the part of the text whose trigrams are rare, and every row it finds is
 * checked against the whole text (`search.ts`: an ILIKE on the column, which no index serves, so
 * the planner cannot hand it to the index). Which trigrams are common is read from the statistics
 * ANALYZE keeps of the index's expression (a hundred addresses spread over the table, refreshed by
 * autovacuum): the same sample the planner itself reads a pattern's selectivity from.
 */

/**
 * A trigram in a share of the sample, by the share (0 to 1) of the addresses holding it; and the
 * sampled addresses themselves (lower case).
 */
export type TrigramShares = {
  shares: Map<string, number>;
  unseen: number;
  addresses: string[];
  /** The part chosen for each text searched with this sample (`indexedPart`). */
  parts: Map<string, string>;
};

/** Word characters as pg_trgm reads an ASCII pattern: a letter or a digit. */
const isWordChar = (c: string) => (c >= "a" && c <= "z") || (c >= "0" && c <= "9");
/** A sample address's word characters: pg_trgm's letters are the locale's, not only ASCII. */
const WORDS_OF_VALUE = /[\p{L}\p{N}]+/gu;

/** The trigrams pg_trgm indexes for `value`: each word with two spaces before it and one after. */
export function valueTrigrams(value: string): Set<string> {
  const found = new Set<string>();
  for (const [word] of value.toLowerCase().matchAll(WORDS_OF_VALUE)) addTrigrams(found, `  ${word} `);
  return found;
}

/**
 * The trigrams pg_trgm reads from the index for `like '%part%'`: a word is padded only on a side
 * where the part itself shows its boundary (a non-word character), not where the `%` around it
 * leaves the address to go on. `part` is lower-case ASCII, as typed (no LIKE escapes).
 */
export function patternTrigrams(part: string): Set<string> {
  const found = new Set<string>();
  growPart(part, 0, part.length, (trigram) => {
    if (trigram) found.add(trigram);
  });
  return found;
}

/**
 * `patternTrigrams` of `text.slice(start, end)` as the part grows a character at a time from
 * `start`: `added` is told, after each character, the trigram it adds (or undefined). A part's
 * trigrams never change as it grows, only more join them: the `" "` after a word joins once the
 * part holds the character after the word, the `"  "` before one once it holds the one before.
 */
function growPart(text: string, start: number, end: number, added: (trigram: string | undefined) => void) {
  let word = "";
  for (let i = start; i < end; i++) {
    if (isWordChar(text[i])) {
      // A word at the part's start may go on to the left: no padding before it.
      word = word === "" && i > start ? `  ${text[i]}` : word + text[i];
      added(word.length >= 3 ? word.slice(-3) : undefined);
    } else {
      const padded = `${word} `;
      added(word !== "" && padded.length >= 3 ? padded.slice(-3) : undefined);
      word = "";
    }
  }
}

function addTrigrams(into: Set<string>, padded: string) {
  for (let i = 0; i + 3 <= padded.length; i++) into.add(padded.slice(i, i + 3));
}

/**
 * What a candidate row costs beside a posting list's entry: a row the index finds is read from the
 * table and checked (about 18 µs at a million payments), an entry of a posting list decoded (about
 * 7 ns): docs/benchmarks.md, "The email's part the index reads".
 */
const ROW_PER_ENTRY = 2_500;
/** The longest part tried: a part this long is rare enough; longer ones only add trigrams to read. */
const LONGEST_PART = 24;

/**
 * The part of `needle` (lower case) the index is given: the window of the text whose trigrams are
 * read most cheaply for the rows they leave to check, by `shares`. The whole text when it is not
 * plain ASCII (whose word characters the database's locale decides), when no part is at least
 * twice as cheap, or when no statistics are kept.
 */
export function indexedPart(needle: string, shares: TrigramShares | undefined): string {
  if (!shares || !/^[\x20-\x7e]+$/.test(needle)) return needle;
  const known = shares.parts.get(needle);
  if (known !== undefined) return known;
  // Each part from `start`, grown a character at a time, its cost kept as trigrams join it; `seen`
  // each part: a part with no trigram would read the whole index, and is never chosen.
  const grow = (start: number, longest: number, seen: (end: number, cost: number) => void) => {
    const held = new Set<string>();
    let [end, entries, rows] = [start, 0, 1];
    growPart(needle, start, Math.min(needle.length, start + longest), (trigram) => {
      end++;
      if (trigram && !held.has(trigram)) {
        held.add(trigram);
        const share = Math.max(shares.shares.get(trigram) ?? 0, shares.unseen);
        entries += share;
        rows *= share;
      }
      if (end - start >= 3 && held.size > 0) seen(end, entries + ROW_PER_ENTRY * rows);
    });
  };
  let whole = Number.POSITIVE_INFINITY;
  grow(0, needle.length, (end, cost) => {
    if (end === needle.length) whole = cost;
  });
  let best = needle;
  let cheapest = whole;
  for (let start = 0; start < needle.length; start++) {
    grow(start, LONGEST_PART, (end, cost) => {
      if (cost < cheapest && !(start === 0 && end === needle.length)) {
        cheapest = cost;
        best = needle.slice(start, end);
      }
    });
  }
  const part = cheapest * 2 <= whole ? best : needle;
  // Paging through a search sends its text again: chosen once per sample.
  if (shares.parts.size >= 1_000) shares.parts.clear();
  shares.parts.set(needle, part);
  return part;
}

/**
 * Whether no sampled address contains `needle` (lower case): a search that finds few payments, most
 * likely under one in a hundred. PostgreSQL estimates a short text's matches by its length alone
 * (`r77@`: 0.8% of the rows), and for so many it reads the list newest first, expecting a page
 * soon; for a text found a few times, or never, that reads the whole list (docs/benchmarks.md,
 * "A short text's matches found first"). Such a search finds its matches first (`matchesFirst` in
 * `PreparedList`). Unknown without statistics: the planner's own choice, as before.
 */
export function rareInSample(needle: string, shares: TrigramShares | undefined): boolean {
  return shares !== undefined && !shares.addresses.some((address) => address.includes(needle));
}

/** How long a process keeps the sample: ANALYZE refreshes it after a tenth of the table changed. */
const SAMPLE_TTL_MS = 10 * 60_000;
const samples = expiringMapPer<object, "sample", { shares: TrigramShares | undefined }>({
  ttlMs: SAMPLE_TTL_MS,
  maxEntries: 1,
});

/**
 * The share of addresses holding each trigram, from the statistics of the trigram index's
 * expression (its most common values with their frequencies, and its histogram's bounds, an even
 * spread of the rest); undefined until ANALYZE has run (PGlite runs none by itself).
 */
export async function emailTrigramShares(db: Database): Promise<TrigramShares | undefined> {
  const memo = samples(db);
  const known = memo.get("sample");
  if (known) return known.shares;
  const result = (await db.execute(sql`
    select most_common_vals::text::text[] as common, most_common_freqs as freqs,
           histogram_bounds::text::text[] as bounds
      from pg_stats
     where schemaname = current_schema() and tablename = 'payments_email_trgm_idx'`)) as {
    rows: { common: string[] | null; freqs: number[] | null; bounds: string[] | null }[];
  };
  const shares = sharesOf(result.rows[0]);
  memo.set("sample", { shares });
  return shares;
}

function sharesOf(
  row: { common: string[] | null; freqs: number[] | null; bounds: string[] | null } | undefined,
): TrigramShares | undefined {
  const common = row?.common ?? [];
  const freqs = (row?.freqs ?? []).map(Number);
  const bounds = row?.bounds ?? [];
  // Too few addresses to tell a common trigram from a rare one: the whole text, as before.
  if (common.length + bounds.length < 20) return undefined;
  const rest = Math.max(0, 1 - freqs.reduce((sum, freq) => sum + freq, 0));
  const weighted: [value: string, weight: number][] = [
    ...common.map((value, i): [string, number] => [value, freqs[i] ?? 0]),
    ...bounds.map((value): [string, number] => [value, rest / bounds.length]),
  ];
  const shares = new Map<string, number>();
  for (const [value, weight] of weighted) {
    for (const trigram of valueTrigrams(value)) shares.set(trigram, (shares.get(trigram) ?? 0) + weight);
  }
  // A trigram no sampled address holds is taken as half as common as one the sample holds once.
  return {
    shares,
    unseen: 1 / (2 * weighted.length),
    addresses: weighted.map(([value]) => value.toLowerCase()),
    parts: new Map(),
  };
}
