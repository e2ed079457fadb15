import { describe, expect, it } from 'vitest';
import { jaccardSorted } from '../../../../src/core/groups/jaccard.ts';
import { shortJoinMembers, similarityJoin } from '../../../../src/core/groups/short-documents.ts';

/** Deterministic LCG so the property test is reproducible. */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296);
}

function randomSets(seed: number, count: number): Uint32Array[] {
  const r = lcg(seed);
  const sets: Uint32Array[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0 && r() < 0.5) {
      // A near-copy of an earlier set: drop and add a few elements.
      const base = [...sets[Math.floor(r() * sets.length)]!];
      const edits = Math.floor(r() * 4);
      for (let e = 0; e < edits; e++) {
        if (r() < 0.5 && base.length > 1) base.splice(Math.floor(r() * base.length), 1);
        else base.push(Math.floor(r() * 400));
      }
      sets.push(Uint32Array.from(new Set(base)).sort());
    } else {
      const size = Math.floor(r() * 40);
      const values = new Set<number>();
      while (values.size < size) values.add(Math.floor(r() * 400));
      sets.push(Uint32Array.from(values).sort());
    }
  }
  return sets;
}

function bruteForce(sets: Uint32Array[], threshold: number): string[] {
  const out: string[] = [];
  for (let a = 0; a < sets.length; a++) {
    for (let b = a + 1; b < sets.length; b++) if (jaccardSorted(sets[a]!, sets[b]!) >= threshold) out.push(`${a}-${b}`);
  }
  return out.sort();
}

describe('similarityJoin', () => {
  it.each([0.5, 0.7, 0.8, 0.9, 1])('finds exactly the brute-force pairs at threshold %s', (threshold) => {
    for (const seed of [1, 2, 3]) {
      const sets = randomSets(seed, 300);
      const ids = Array.from(sets.keys());
      const join = similarityJoin(ids, (d) => sets[d]!, threshold);
      const found = Array.from({ length: join.count }, (_, i) => `${join.a[i]}-${join.b[i]}`).sort();
      expect(found).toEqual(bruteForce(sets, threshold));
      for (let i = 0; i < join.count; i++) expect(join.a[i]).toBeLessThan(join.b[i]!);
    }
  });

  it('keeps a pair exactly at the threshold where t * size is not exact in floating point', () => {
    // X = 0..99, Y = 45..99: J = 55/100 = 0.55, but 0.55 * 100 = 55.00000000000001. Rounding that up
    // would cut X's prefix to 0..44 and make |Y| = 55 fail the size bound: the pair would be lost.
    const x = Uint32Array.from({ length: 100 }, (_, i) => i);
    const y = x.slice(45);
    const join = similarityJoin([0, 1], (d) => (d === 0 ? x : y), 0.55);
    expect(join.count).toBe(1);
    expect(join.jaccard[0]).toBeCloseTo(0.55, 6);
  });

  it('maps results back to the given document ids and skips empty sets', () => {
    const sets = new Map<number, Uint32Array>([
      [40, Uint32Array.of(1, 2, 3, 4, 5)],
      [7, Uint32Array.of(1, 2, 3, 4, 5)],
      [9, new Uint32Array(0)],
      [12, new Uint32Array(0)],
    ]);
    const join = similarityJoin([40, 7, 9, 12], (d) => sets.get(d)!, 0.8);
    expect(join.count).toBe(1);
    expect([join.a[0], join.b[0], join.jaccard[0]]).toEqual([7, 40, 1]);
  });

  it('rejects thresholds outside (0, 1]', () => {
    expect(() => similarityJoin([], () => new Uint32Array(0), 0)).toThrow(RangeError);
    expect(() => similarityJoin([], () => new Uint32Array(0), 1.5)).toThrow(RangeError);
  });
});

describe('shortJoinMembers', () => {
  it('takes short documents and every document small enough to reach the threshold against one', () => {
    //            short   short  long-but-small  long-and-big  no features
    const words = [20,     45,    80,             80,           2];
    const features = [18,  40,    50,             51,           0];
    // Largest short set: 40 features, so partners may have up to 40 / 0.8 = 50.
    expect([...shortJoinMembers(words, features, 50, 0.8)]).toEqual([0, 1, 2]);
  });

  it('is empty when there is no short document', () => {
    expect(shortJoinMembers([100, 200], [98, 198], 50, 0.8).length).toBe(0);
  });
});
