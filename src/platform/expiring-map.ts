/**
 * A map for in-process caches: an entry lapses `ttlMs` after it was written, and beyond
 * `maxEntries` the oldest written entry is dropped. Expiry is checked on read; nothing runs in the
 * background.
 */
export class ExpiringMap<K, V> {
  readonly #entries = new Map<K, { value: V; staleAt: number }>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(options: { ttlMs: number; maxEntries: number; now?: () => number }) {
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = options.maxEntries;
    this.#now = options.now ?? Date.now;
  }

  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.staleAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: K, value: V): void {
    // Re-inserted, so the entry counts as the newest; Maps iterate in insertion order, so the
    // first entry is the oldest.
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value as K);
    this.#entries.set(key, { value, staleAt: this.#now() + this.#ttlMs });
  }

  delete(key: K): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  /** Every entry, lapsed or not (for removing entries by what they hold). */
  *entries(): IterableIterator<[K, V]> {
    for (const [key, { value }] of this.#entries) yield [key, value];
  }
}

/**
 * One map per `owner` (a database handle, a custody), made with `options` on its first use: a
 * process's memory kept by what it was read through, so each test app, with handles of its own,
 * keeps its memory apart from the others'.
 */
export function expiringMapPer<O extends object, K, V>(options: {
  ttlMs: number;
  maxEntries: number;
}): (owner: O) => ExpiringMap<K, V> {
  const maps = new WeakMap<O, ExpiringMap<K, V>>();
  return (owner) => {
    let map = maps.get(owner);
    if (!map) {
      map = new ExpiringMap(options);
      maps.set(owner, map);
    }
    return map;
  };
}
