/** The seeded pseudo-random source of the quality corpus: every document is a function of the seed. */

import { mulberry32Unit } from '../../tests/fixtures/mulberry32.ts';

/** A deterministic random source (mulberry32) with the few draws the corpus generator needs. */
export class Rng {
  private readonly draw: () => number;

  constructor(seed: number) {
    this.draw = mulberry32Unit(seed);
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.draw();
  }

  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A uniformly chosen element. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /**
   * An element chosen with Zipf-like weights (rank r has weight 1 / (r + 1)^s), the way word
   * frequencies fall off in real text, so common words recur across unrelated documents.
   */
  zipf<T>(items: readonly T[], s = 1): T {
    const table = zipfTable(items.length, s);
    const u = this.next() * table[table.length - 1]!;
    let lo = 0;
    let hi = table.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (table[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return items[lo]!;
  }

  /** Shuffles in place (Fisher-Yates) and returns the array. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const t = items[i]!;
      items[i] = items[j]!;
      items[j] = t;
    }
    return items;
  }
}

const zipfTables = new Map<string, Float64Array>();

/** Cumulative Zipf weights for n ranks, cached because the same lists are sampled millions of times. */
function zipfTable(n: number, s: number): Float64Array {
  const key = `${n}:${s}`;
  let table = zipfTables.get(key);
  if (!table) {
    table = new Float64Array(n);
    let sum = 0;
    for (let r = 0; r < n; r++) {
      sum += 1 / Math.pow(r + 1, s);
      table[r] = sum;
    }
    zipfTables.set(key, table);
  }
  return table;
}
