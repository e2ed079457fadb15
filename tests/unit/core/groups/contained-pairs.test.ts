import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTAINMENT, findContainedPairs, passagesNeeded } from '../../../../src/core/groups/contained-pairs.ts';
import { intersectionSize } from '../../../../src/core/groups/jaccard.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';

const sorted = (keys: Iterable<number>) => Uint32Array.from(new Set(keys)).sort();

/** Random sets: wholes, excerpts of them (a share of their keys), wholes plus an appendix, and unrelated sets. */
function corpus(seed: number): Uint32Array[] {
  const random = mulberry32(seed);
  const sets: Uint32Array[] = [];
  for (let w = 0; w < 30; w++) {
    const whole = Array.from({ length: 300 + (random() % 1500) }, () => random());
    sets.push(sorted(whole));
    const share = 0.3 + (random() % 300) / 1000;
    const start = random() % Math.floor(whole.length * (1 - share));
    sets.push(sorted(whole.slice(start, start + Math.floor(whole.length * share))));
    // An excerpt with a few words changed: containment just above or below 0.9.
    const edited = whole.slice(0, Math.floor(whole.length / 2)).map((k) => (random() % 100 < 8 ? random() : k));
    sets.push(sorted(edited));
    sets.push(sorted([...whole, ...Array.from({ length: 200 + (random() % 800) }, () => random())]));
  }
  return sets;
}

function bruteForce(sets: Uint32Array[], threshold: number, jaccardThreshold: number): string[] {
  const out: string[] = [];
  for (let a = 0; a < sets.length; a++) {
    for (let b = 0; b < sets.length; b++) {
      const sa = sets[a].length;
      const sb = sets[b].length;
      if (a === b || sa === 0 || sb < sa || (sb === sa && b < a)) continue;
      const c = intersectionSize(sets[a], sets[b]);
      if (c / sa >= threshold && c / (sa + sb - c) < jaccardThreshold) out.push(`${a}>${b}`);
    }
  }
  return out.sort();
}

const found = (sets: Uint32Array[], options = DEFAULT_CONTAINMENT) => {
  const { pairs } = findContainedPairs(sets, options);
  return Array.from({ length: pairs.count }, (_, i) => `${pairs.inner[i]}>${pairs.outer[i]}`).sort();
};

describe('findContainedPairs', () => {
  it('finds every contained pair that exact counting finds, and nothing else, on random corpora', () => {
    for (const seed of [1, 2, 3]) {
      const sets = corpus(seed);
      const truth = bruteForce(sets, DEFAULT_CONTAINMENT.threshold, DEFAULT_CONTAINMENT.jaccardThreshold);
      expect(truth.length).toBeGreaterThan(40);
      expect(found(sets)).toEqual(truth);
    }
  });

  it('reports the smaller set as the inner one, with exact containment and Jaccard', () => {
    const whole = sorted(Array.from({ length: 1000 }, (_, i) => i * 7919 * 8));
    const part = whole.slice(100, 500);
    const { pairs } = findContainedPairs([whole, part]);
    expect(pairs.count).toBe(1);
    expect([pairs.inner[0], pairs.outer[0]]).toEqual([1, 0]);
    expect(pairs.containment[0]).toBe(1);
    expect(pairs.jaccard[0]).toBeCloseTo(0.4, 6);
  });

  it('leaves near-duplicates (Jaccard at or above the threshold) to the near-duplicate relation', () => {
    const whole = sorted(Array.from({ length: 1000 }, (_, i) => i * 7919 * 8));
    expect(found([whole, whole.slice(0, 900)])).toEqual([]);
    expect(found([whole, whole.slice(0, 700)])).toEqual(['1>0']);
  });

  it('is off at threshold 0, skips excluded documents, and finds a part inside many copies of its whole', () => {
    const whole = sorted(Array.from({ length: 1000 }, (_, i) => i * 7919 * 8));
    const part = whole.slice(0, 400);
    expect(found([whole, part], { ...DEFAULT_CONTAINMENT, threshold: 0 })).toEqual([]);
    expect(findContainedPairs([whole, part], DEFAULT_CONTAINMENT, (d) => d !== 1).pairs.count).toBe(0);
    // Every passage of the part is in 201 documents: no passage is too common to count (a licence
    // inside hundreds of copyright files is contained in each of them).
    const many = [part, ...Array.from({ length: 200 }, () => whole)];
    const { pairs } = findContainedPairs(many);
    expect(pairs.count).toBe(200);
    expect(Array.from(pairs.inner).every((d) => d === 0)).toBe(true);
  });

  it('proposes a pair from the rarest passages only, and still finds every contained pair sharing common ones', () => {
    // A part made of passages common to every document, and a rare tail only its whole holds.
    const common = sorted(Array.from({ length: 300 }, (_, i) => i * 7919 * 8));
    const tail = sorted(Array.from({ length: 100 }, (_, i) => (i + 5000) * 7919 * 8));
    const part = sorted([...common, ...tail]);
    const whole = sorted([...part, ...Array.from({ length: 600 }, (_, i) => (i + 9000) * 7919 * 8)]);
    const others = Array.from({ length: 50 }, (_, o) => sorted([...common, ...Array.from({ length: 700 }, (_, i) => (i + 20000 + o * 1000) * 7919 * 8)]));
    expect(found([part, whole, ...others])).toEqual(['0>1']);
  });
});

describe('passagesNeeded', () => {
  it('asks 2/3 of T of a small sample, and no fewer than four spreads below T of a large one', () => {
    expect(passagesNeeded(4, 0.9)).toBe(3);
    expect(passagesNeeded(10, 0.9)).toBe(6);
    expect(passagesNeeded(100, 0.9)).toBe(78);
    expect(passagesNeeded(1000, 0.9)).toBe(863);
    for (let s = 1; s < 2000; s++) expect(passagesNeeded(s, 0.9)).toBeGreaterThanOrEqual(Math.ceil(0.6 * s - 1e-9));
  });
});
