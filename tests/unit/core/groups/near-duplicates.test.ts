import { describe, expect, it } from 'vitest';
import { findNearDuplicates, sortScoredPairs, type NearDuplicateInput } from '../../../../src/core/groups/near-duplicates.ts';
import { createFingerprinter } from '../../../../src/core/simhash/fingerprinter.ts';
import { hamming } from '../../../../src/core/simhash/fingerprint64.ts';
import { DEFAULT_SETTINGS, type SimHashSettings } from '../../../../src/core/simhash/settings.ts';

const WORDS = `river stone light paper window garden letter engine signal module parser record column
  buffer stream socket token compiler plugin option harbour valley bridge mountain island forest village
  kitchen candle journey market winter summer yellow silent narrow gentle bright ancient hidden steady`.split(/\s+/);

/** `count` pseudo-random words from a seed (deterministic). */
function words(seed: number, count: number): string[] {
  let s = seed >>> 0;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out.push(WORDS[s % WORDS.length]!);
  }
  return out;
}

/** Fingerprints texts with the real fingerprinter; feature sets always come from binary word3 features. */
function corpus(texts: string[], settings: SimHashSettings = DEFAULT_SETTINGS): NearDuplicateInput {
  const fp = createFingerprinter(settings);
  const sets = createFingerprinter(DEFAULT_SETTINGS);
  const n = texts.length;
  const input: NearDuplicateInput = {
    hi: new Uint32Array(n),
    lo: new Uint32Array(n),
    hasFingerprint: new Uint8Array(n),
    words: new Uint32Array(n),
    featureCount: new Uint32Array(n),
    getFeatureSet: (d) => sets.featureSet(texts[d]!),
  };
  texts.forEach((t, d) => {
    const r = fp.fingerprint(t);
    input.hi[d] = r.hi;
    input.lo[d] = r.lo;
    input.hasFingerprint[d] = r.status === 'ok' ? 1 : 0;
    (input.words as Uint32Array)[d] = r.words;
    (input.featureCount as Uint32Array)[d] = sets.featureSet(t).length;
  });
  return input;
}

const pairList = (r: ReturnType<typeof findNearDuplicates>) =>
  Array.from({ length: r.pairs.count }, (_, i) => [r.pairs.a[i], r.pairs.b[i]]);

describe('findNearDuplicates', () => {
  const original = words(1, 600);
  const edited = original.slice();
  for (let i = 0; i < 6; i++) edited[i * 97 + 5] = 'replaced';
  const unrelated = words(2, 600);

  it('finds a 1%-edited copy of a long document and nothing else', () => {
    const input = corpus([original.join(' '), unrelated.join(' '), edited.join(' ')]);
    const r = findNearDuplicates(input, { k: 12 });
    expect(pairList(r)).toEqual([[0, 2]]);
    expect(r.pairs.jaccard[0]).toBeGreaterThan(0.9);
    expect(r.pairs.distance[0]).toBe(hamming(input.hi[0]!, input.lo[0]!, input.hi[2]!, input.lo[2]!));
    expect([...r.short]).toEqual([0, 0, 0]);
  });

  it('rejects a pair that TF fingerprints put close together but whose shingles differ', () => {
    // One boilerplate line repeated 60 times dominates both TF sums; the bodies are unrelated.
    const line = 'this file is part of the project and is distributed under the terms of the license';
    const boiler = Array.from({ length: 60 }, () => line).join('\n');
    const texts = [`${boiler}\n${words(3, 150).join(' ')}`, `${boiler}\n${words(4, 150).join(' ')}`];
    const input = corpus(texts, { ...DEFAULT_SETTINGS, weights: 'tf' });
    const distance = hamming(input.hi[0]!, input.lo[0]!, input.hi[1]!, input.lo[1]!);
    expect(distance).toBeLessThanOrEqual(12); // the fingerprint alone would call them near-duplicates
    const unverified = findNearDuplicates(input, { k: 12, verify: false });
    expect(pairList(unverified)).toEqual([[0, 1]]);
    const verified = findNearDuplicates(input, { k: 12 });
    expect(verified.pairs.count).toBe(0);
    expect(verified.candidates).toBe(1);
    expect(verified.acceptedCandidates).toBe(0);
  });

  it('finds short near-duplicates by exact Jaccard even when their fingerprints are far apart', () => {
    const a = words(5, 40);
    const b = a.slice();
    b[20] = 'replaced'; // 3 of 38 shingles change: J = 35/41
    const input = corpus([a.join(' '), b.join(' '), words(6, 40).join(' ')]);
    const r = findNearDuplicates(input, { k: 0 }); // k = 0: the index finds only identical fingerprints
    expect(pairList(r)).toEqual([[0, 1]]);
    expect(r.pairs.jaccard[0]).toBeCloseTo(35 / 41, 6);
    expect([...r.short]).toEqual([1, 1, 1]);
    expect(r.joinPairs).toBe(1);
    expect(r.joinOnly).toBe(1); // the index (k = 0) did not propose it: the join did
  });

  it('never accepts a short pair on its fingerprint alone, even with verification off', () => {
    const shortA = words(7, 30).join(' ');
    const shortB = words(8, 30).join(' ');
    const input = corpus([original.join(' '), unrelated.join(' '), shortA, shortB]);
    // Candidates as an index at a huge k would return them: one long pair, one short pair.
    const candidates = { a: Uint32Array.of(0, 2), b: Uint32Array.of(1, 3), distance: Uint8Array.of(9, 9), count: 2 };
    const r = findNearDuplicates(input, { verify: false, candidates });
    expect(pairList(r)).toEqual([[0, 1]]); // the long pair on distance alone; the short pair was verified and rejected
    expect(Number.isNaN(r.pairs.jaccard[0])).toBe(true);
  });

  it('never pairs documents too short to have features', () => {
    const input = corpus(['hello world', 'Hello, World!', '', original.join(' ')]);
    expect([...input.hasFingerprint]).toEqual([0, 0, 0, 1]);
    expect(findNearDuplicates(input, { k: 64 }).pairs.count).toBe(0);
  });

  it('applies the similarity threshold', () => {
    const input = corpus([original.join(' '), edited.join(' ')]);
    const j = findNearDuplicates(input, { k: 20 }).pairs.jaccard[0]!;
    expect(findNearDuplicates(input, { k: 20, threshold: j - 0.001 }).pairs.count).toBe(1);
    expect(findNearDuplicates(input, { k: 20, threshold: j + 0.001 }).pairs.count).toBe(0);
  });
});

describe('sortScoredPairs', () => {
  it('orders by (a, b) and carries distance and Jaccard along', () => {
    const sorted = sortScoredPairs(
      {
        a: Uint32Array.of(3, 0, 1, 0),
        b: Uint32Array.of(4, 5, 2, 2),
        distance: Uint8Array.of(1, 2, 3, 4),
        jaccard: Float32Array.of(0.1, 0.2, 0.3, 0.4),
        count: 4,
      },
      6,
    );
    expect([...sorted.a]).toEqual([0, 0, 1, 3]);
    expect([...sorted.b]).toEqual([2, 5, 2, 4]);
    expect([...sorted.distance]).toEqual([4, 2, 3, 1]);
    expect([...sorted.jaccard]).toEqual([0.4, 0.2, 0.3, 0.1].map(Math.fround));
  });
});
