import { describe, expect, it } from 'vitest';
import { keptPairs, verifyPairs } from '../../../../src/core/groups/verify.ts';

const set = (...v: number[]) => Uint32Array.from(v);
const pairs = (list: Array<[number, number]>) => ({
  a: Uint32Array.from(list, (p) => p[0]),
  b: Uint32Array.from(list, (p) => p[1]),
  count: list.length,
});

describe('verifyPairs', () => {
  const sets = [set(1, 2, 3, 4), set(1, 2, 3, 4, 5), set(1, 2, 9, 10), set(1, 2, 3, 4)];
  const source = (d: number) => sets[d]!;

  it('keeps pairs whose exact Jaccard reaches the threshold, and rejects the rest', () => {
    const v = verifyPairs(pairs([[0, 1], [0, 2], [0, 3], [1, 2]]), source, 0.8);
    expect([...v.keep]).toEqual([1, 0, 1, 0]);
    expect(v.kept).toBe(2);
    expect(v.jaccard[0]).toBeCloseTo(0.8, 6);
    expect(v.jaccard[1]).toBeCloseTo(2 / 6, 6);
    expect(v.jaccard[2]).toBe(1);
  });

  it('decides at the threshold exactly (J = 4/5 kept at 0.8, rejected at 0.81)', () => {
    expect(verifyPairs(pairs([[0, 1]]), source, 0.8).kept).toBe(1);
    expect(verifyPairs(pairs([[0, 1]]), source, 0.81).kept).toBe(0);
  });

  it('rejects a pair the fingerprint calls identical when the feature sets are far apart', () => {
    // Distance 0 from the index says nothing here: only the sets decide.
    const far = [set(1, 2, 3, 4, 5, 6, 7, 8), set(1, 2, 30, 40, 50, 60, 70, 80)];
    const v = verifyPairs(pairs([[0, 1]]), (d) => far[d]!, 0.8);
    expect(v.kept).toBe(0);
    expect(v.keep[0]).toBe(0);
    expect(v.jaccard[0]).toBeCloseTo(2 / 14, 6);
  });

  it('fetches each document once with a roomy cache, and stays right with a tiny one', () => {
    const list: Array<[number, number]> = [[2, 3], [0, 1], [1, 3], [0, 3], [0, 2], [1, 2]];
    const calls = new Map<number, number>();
    const counting = (d: number) => {
      calls.set(d, (calls.get(d) ?? 0) + 1);
      return sets[d]!;
    };
    const roomy = verifyPairs(pairs(list), counting, 0.8);
    expect([...calls.values()].every((c) => c === 1)).toBe(true);
    const tiny = verifyPairs(pairs(list), source, 0.8, { cacheSize: 1 });
    expect([...tiny.keep]).toEqual([...roomy.keep]);
    expect([...tiny.jaccard]).toEqual([...roomy.jaccard]);
  });

  it('handles no pairs and only honours the first `count` entries', () => {
    expect(verifyPairs(pairs([]), source).kept).toBe(0);
    const p = pairs([[0, 3], [0, 2]]);
    const v = verifyPairs({ ...p, count: 1 }, source, 0.8);
    expect(v.keep.length).toBe(1);
    expect(v.kept).toBe(1);
  });

  it('compacts the kept pairs with their distance and Jaccard', () => {
    const p = { ...pairs([[0, 1], [0, 2], [0, 3]]), distance: Uint8Array.of(4, 5, 6) };
    const kept = keptPairs(p, verifyPairs(p, source, 0.8));
    expect(kept.count).toBe(2);
    expect([...kept.a]).toEqual([0, 0]);
    expect([...kept.b]).toEqual([1, 3]);
    expect([...kept.distance]).toEqual([4, 6]);
    expect(kept.jaccard[1]).toBe(1);
  });
});
