/**
 * A small seeded generator (mulberry32: 32 bits of state, a full period of 2^32, and fast), so a
 * scenario is a function of its seed alone: the same seed gives the same choices on any machine
 * and engine. Not for anything secret.
 */
export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from nothing");
    return items[this.int(items.length)];
  }

  /** One key of `weights`, each as likely as its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let at = this.next() * total;
    for (const [key, weight] of entries) {
      at -= weight;
      if (at < 0) return key;
    }
    return entries[entries.length - 1][0];
  }
}

/** A seed drawn from the time, for runs that ask for fresh seeds; printed so it can be replayed. */
export const freshSeed = (): number => (Date.now() ^ (process.pid << 16)) >>> 0;
