import { describe, expect, it } from 'vitest';
import { CANDIDATE_RECALL_AT_K, DEFAULT_K, DEFAULT_RECALL, SCAN_NS_PER_DOCUMENT, SEARCH_SHARE, binomialRecall, defaultKReason, fasterK, describeRecall, expectedRecall, expectedRecallAt, kForRecall } from '../../../../src/core/quality/defaults.ts';
import { searchNanoseconds } from '../../../../src/core/index/search-cost.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';

describe('binomialRecall', () => {
  it('matches a simulation of 64 independent bits that differ with probability angle / pi', () => {
    const rnd = mulberry32(5);
    for (const jaccard of [0.8, 0.85]) {
      const p = Math.acos((2 * jaccard) / (1 + jaccard)) / Math.PI;
      const trials = 20_000;
      const within = new Uint32Array(65);
      for (let t = 0; t < trials; t++) {
        let d = 0;
        for (let b = 0; b < 64; b++) if (rnd() / 2 ** 32 < p) d++;
        within[d]++;
      }
      for (const k of [8, 12, 16]) {
        let count = 0;
        for (let d = 0; d <= k; d++) count += within[d];
        expect(binomialRecall(k, jaccard)).toBeCloseTo(count / trials, 1);
      }
    }
    expect(binomialRecall(64, 0.8)).toBeCloseTo(1, 12);
    expect(binomialRecall(0, 1)).toBe(1);
  });
});

describe('expectedRecall', () => {
  it('is the lower of the model (Jaccard 0.8 and 0.85) and the real-text measurement', () => {
    for (let k = 8; k <= 20; k++) {
      const model = (binomialRecall(k, 0.8) + binomialRecall(k, 0.85)) / 2;
      const measured = k >= 17 ? 1 : CANDIDATE_RECALL_AT_K[k];
      expect(expectedRecall(k)).toBe(Math.min(model, measured));
      if (k > 8) expect(expectedRecall(k)).toBeGreaterThanOrEqual(expectedRecall(k - 1));
    }
    // At k = 13 the real-text figure alone (0.987) promised more than a mixed corpus gave (0.965).
    expect(expectedRecall(13)).toBeLessThan(0.965);
  });
  it('below the measured ks (k < 8) is the model, never 0: a person at k = 7 read "about 0.0% of the pairs are found"', () => {
    for (let k = 0; k < 8; k++) expect(expectedRecall(k)).toBe((binomialRecall(k, 0.8) + binomialRecall(k, 0.85)) / 2);
    for (let k = 1; k <= 20; k++) expect(expectedRecall(k)).toBeGreaterThanOrEqual(expectedRecall(k - 1));
    expect(describeRecall(7, 0.8)).toBe(
      'At k = 7, about 31.6% of the pairs at Jaccard 0.8–0.9 are found (more of the pairs above; the SimHash model). k = 7 cannot reach similarity 0.8: k = 14 would find 95%.',
    );
  });
});

describe('expected recall at the chosen similarity', () => {
  it('is the model at the band above the chosen similarity, with the measurement where one exists (0.8)', () => {
    for (let k = 8; k <= 20; k++) expect(expectedRecallAt(k, 0.8)).toBe(expectedRecall(k));
    expect(expectedRecallAt(16, 0.5)).toBeCloseTo((binomialRecall(16, 0.5) + binomialRecall(16, 0.55)) / 2, 12);
    expect(expectedRecallAt(16, 0.5)).toBeLessThan(0.6);
    expect(expectedRecallAt(16, 0.9)).toBeGreaterThan(0.999);
  });
  it('names the smallest k that reaches 95% at a similarity the given k cannot', () => {
    for (const t of [0.5, 0.6, 0.7, 0.8, 0.9]) {
      const k = kForRecall(t)!;
      expect(expectedRecallAt(k, t)).toBeGreaterThanOrEqual(0.95);
      expect(expectedRecallAt(k - 1, t)).toBeLessThan(0.95);
    }
    expect([0.5, 0.7, 0.8].map((t) => kForRecall(t))).toEqual([23, 17, 14]);
    expect(kForRecall(0.5, 0.95, 16)).toBeNull();
  });
  it('says the figure for the chosen similarity, not always the 0.8-0.9 band', () => {
    expect(describeRecall(16, 0.8)).toBe('At k = 16, about 99.2% of the pairs at Jaccard 0.8–0.9 are found (more of the pairs above; the lower of the SimHash model and a measurement on real text).');
    const low = describeRecall(16, 0.5, { maxK: 16 });
    expect(low).toMatch(/^At k = 16, about 50\.6% of the pairs at Jaccard 0\.5–0\.6 are found \(more of the pairs above; the SimHash model\)\. /);
    expect(low).toContain('k = 16 cannot reach similarity 0.5: k = 23 would find 95%, more than this page searches (16); simsift scan --k 23 does.');
    expect(describeRecall(16, 0.5)).toContain('k = 16 cannot reach similarity 0.5: k = 23 would find 95%.');
    expect(describeRecall(16, 0.95)).toBe('At k = 16, about 100.0% of the pairs at Jaccard 0.95–1 are found (more of the pairs above; the SimHash model).');
  });
});

describe('the default k', () => {
  it('is the smallest k whose expected recall at Jaccard 0.8-0.9 reaches DEFAULT_RECALL, at any corpus size', () => {
    expect(DEFAULT_K).toBe(16);
    expect(expectedRecall(DEFAULT_K)).toBeGreaterThanOrEqual(DEFAULT_RECALL);
    expect(expectedRecall(DEFAULT_K - 1)).toBeLessThan(DEFAULT_RECALL);
  });

  it('names a faster k only when its search would take more than its share of the scan', () => {
    const budget = (n: number) => n * SCAN_NS_PER_DOCUMENT * SEARCH_SHARE;
    expect(fasterK(1000, (n, k) => n * 2 ** k)).toBe(null);
    // 2^(k+3) ns a document: k = 13 is the largest within 10% of 1 ms.
    expect(fasterK(1000, (n, k) => n * 2 ** (k + 3))).toBe(13);
    expect(fasterK(1000, () => Infinity)).toBe(8);
    for (const n of [1_000, 100_000, 1_000_000]) {
      const k = fasterK(n);
      if (k === null) expect(searchNanoseconds(n, DEFAULT_K)).toBeLessThanOrEqual(budget(n));
      else expect(k === 8 || (searchNanoseconds(n, k) <= budget(n) && searchNanoseconds(n, k + 1) > budget(n))).toBe(true);
    }
    expect(defaultKReason(100_000)).toMatch(/^k=16 by default: the smallest k whose expected recall at Jaccard 0\.8-0\.9 reaches 0\.99 \(0\.99\d\); search about [\d.]+ s on one core$/);
    // The index's cost model: at 1,000,000 documents k = 16 searches longer than 10% of the scan.
    expect(defaultKReason(1_000_000)).toMatch(/search about [\d.]+ s on one core, \d+% of this scan's expected CPU: --k 13 searches in about [\d.]+ s \(expected recall 0\.936\)$/);
  });
});
