/**
 * The MinHash sketch and its filter (core/groups/minhash-sketch.ts): the sketch is the per-bin minimum
 * whatever the keys' order and repeats, the fingerprinter's sketch is the feature set's, the tail table
 * is the exact one, and on real text a pair at or above the threshold is never rejected while pairs of
 * unrelated documents are.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SKETCH_BINS, SKETCH_LOSS_BOUND, sketchesAllow, sketchKeys, sketchKnown, sketchMatchFloor } from '../../../../src/core/groups/minhash-sketch.ts';
import { createFingerprinter } from '../../../../src/core/simhash/fingerprinter.ts';
import { DEFAULT_SETTINGS } from '../../../../src/core/simhash/settings.ts';
import { jaccardSorted } from '../../../../src/core/groups/jaccard.ts';
import { normalizeText } from '../../../../src/core/text/normalize.ts';
import { NPM_PACKAGES } from '../../../../bench/real-corpus.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';

/** The sketch by its definition: per bin (top 6 bits), 1 + the least next 15 bits, 0 when empty. */
function reference(keys: Iterable<number>): number[] {
  const out = new Array<number>(SKETCH_BINS).fill(0);
  for (const k of keys) {
    const bin = k >>> 26;
    const v = ((k >>> 11) & 0x7fff) + 1;
    if (out[bin] === 0 || v < out[bin]) out[bin] = v;
  }
  return out;
}

// Real text, read once: the README of each pinned npm package installed (the bench corpus's npm prose).
const sources = NPM_PACKAGES.map((name) => join(import.meta.dirname, '../../../../node_modules', name, 'README.md'))
  .filter((path) => existsSync(path))
  .map((path) => readFileSync(path, 'utf8'));

function sketchOf(keys: Uint32Array): Uint16Array {
  const out = new Uint16Array(SKETCH_BINS);
  sketchKeys(keys, keys.length, 1, out, 0);
  return out;
}

/** Binomial(u, t)'s lower tail against the loss bound in exact rationals (t is a double: a dyadic rational). */
function exactFloor(t: number, u: number): number {
  let scale = 0;
  while (!Number.isInteger(t * 2 ** scale)) scale++;
  const num = BigInt(t * 2 ** scale);
  const den = 1n << BigInt(scale);
  const whole = den ** BigInt(u);
  let choose = 1n;
  let sum = 0n;
  for (let x = 0; x <= u; x++) {
    sum += choose * num ** BigInt(x) * (den - num) ** BigInt(u - x);
    // P(X <= x) >= 1e-9 <=> 10^9 * sum >= den^u.
    if (10n ** 9n * sum >= whole) return x;
    choose = (choose * BigInt(u - x)) / BigInt(x + 1);
  }
  return u;
}

describe('the MinHash sketch', () => {
  it('is the per-bin minimum, whatever the order and repeats of the keys, and reads every other word with stride 2', () => {
    const next = mulberry32(7);
    for (const n of [0, 1, 5, 64, 300, 5000]) {
      const keys = Uint32Array.from({ length: n }, () => next());
      const expected = reference(keys);
      expect(Array.from(sketchOf(keys))).toEqual(expected);
      const shuffled = Uint32Array.from([...keys, ...keys.slice(0, n >> 1)].sort(() => (next() & 1 ? 1 : -1)));
      expect(Array.from(sketchOf(shuffled))).toEqual(expected);
      // As the fingerprinter holds hashes: lo, hi per feature; written at an offset of a larger array.
      const pairs = new Uint32Array(2 * n);
      keys.forEach((k, i) => ((pairs[2 * i] = k), (pairs[2 * i + 1] = next())));
      const out = new Uint16Array(3 * SKETCH_BINS).fill(9);
      sketchKeys(pairs, n, 2, out, SKETCH_BINS);
      expect(Array.from(out.subarray(SKETCH_BINS, 2 * SKETCH_BINS))).toEqual(expected);
      expect(sketchKnown(out, 1)).toBe(n > 0);
      expect(out[0]).toBe(9);
      expect(out[2 * SKETCH_BINS]).toBe(9);
    }
  });

  it('comes out of the fingerprinter equal to its feature set\'s, for every weighting', () => {
    const texts = sources.slice(0, 4).map((text) => text.slice(0, 20_000));
    for (const weights of ['binary', 'tf'] as const) {
      const fp = createFingerprinter({ ...DEFAULT_SETTINGS, weights });
      for (const text of texts) {
        const bytes = new TextEncoder().encode(normalizeText(text));
        const out = new Uint16Array(SKETCH_BINS);
        fp.fingerprintNormalizedWithSet(bytes, bytes.every((b) => b < 0x80), 0, false, out, 0);
        expect(Array.from(out)).toEqual(Array.from(sketchOf(fp.featureSet(text))));
      }
    }
  });
});

describe('the sketch filter', () => {
  it('has the exact tail table: the fewest matches with P(Binomial(u, t) <= x) >= 1e-9', () => {
    expect(SKETCH_LOSS_BOUND).toBe(1e-9);
    for (const t of [0.1, 0.25, 0.3, 0.5, 0.55, 0.7, 0.8, 0.85, 0.9, 0.95, 0.99, 1]) {
      const floor = sketchMatchFloor(t);
      for (let u = 0; u <= SKETCH_BINS; u++) expect(floor[u], `t=${t} u=${u}`).toBe(u === 0 ? 0 : exactFloor(t, u));
    }
    expect(Array.from(sketchMatchFloor(0))).toEqual(new Array(SKETCH_BINS + 1).fill(0));
    // Small u never rejects at the default threshold; a full sketch needs a good share of its bins.
    const f = sketchMatchFloor(0.8);
    expect(f[10]).toBe(0);
    expect(f[64]).toBeGreaterThan(20);
  });

  it('allows a pair whose sketch either side does not know', () => {
    const floor = sketchMatchFloor(0.9);
    const known = sketchOf(Uint32Array.from({ length: 500 }, mulberry32(3)));
    const unknown = new Uint16Array(SKETCH_BINS);
    expect(sketchesAllow(known, 0, unknown, 0, floor)).toBe(true);
    expect(sketchesAllow(unknown, 0, known, 0, floor)).toBe(true);
    expect(sketchesAllow(known, 0, known, 0, floor)).toBe(true);
  });

  it('never rejects real-text pairs at or above the threshold, and rejects unrelated documents (seeded)', () => {
    const seed = 38;
    const next = mulberry32(seed);
    const fp = createFingerprinter(DEFAULT_SETTINGS);
    const docs = sources.map((text) => text.split(/\s+/).filter(Boolean)).filter((words) => words.length >= 120 && words.length <= 3000);
    expect(docs.length).toBeGreaterThan(20);
    const thresholds = [0.5, 0.7, 0.8, 0.9];
    const floors = thresholds.map(sketchMatchFloor);
    let near = 0;
    let closeAbove = 0;
    for (let trial = 0; trial < 300; trial++) {
      const words = docs[next() % docs.length]!;
      // Replace a share of the words (up to a fifth, from another document), so J spreads over 0.45..1.
      const rate = (next() % 1000) / 5000;
      const donor = docs[next() % docs.length]!;
      const edited = words.map((w) => ((next() % 1_000_000) / 1_000_000 < rate ? donor[next() % donor.length]! : w));
      const a = fp.featureSet(words.join(' '));
      const b = fp.featureSet(edited.join(' '));
      const j = jaccardSorted(a, b);
      const sa = sketchOf(a);
      const sb = sketchOf(b);
      thresholds.forEach((t, i) => {
        if (j < t) return;
        near++;
        if (j < t + 0.05) closeAbove++;
        expect(sketchesAllow(sa, 0, sb, 0, floors[i]!), `seed ${seed} trial ${trial}: J=${j} >= ${t} rejected`).toBe(true);
      });
    }
    // Enough pairs just above a threshold, where a loose filter would lose them.
    expect(closeAbove).toBeGreaterThan(50);
    let unrelated = 0;
    for (let trial = 0; trial < 200; trial++) {
      const a = fp.featureSet(docs[next() % docs.length]!.join(' '));
      const b = fp.featureSet(docs[next() % docs.length]!.join(' '));
      if (jaccardSorted(a, b) >= 0.02) continue;
      unrelated++;
      expect(sketchesAllow(sketchOf(a), 0, sketchOf(b), 0, floors[0]!), `seed ${seed}: unrelated pair ${trial} allowed at 0.5`).toBe(false);
    }
    expect(unrelated).toBeGreaterThan(150);
    console.log(`sketch filter, seed ${seed}: ${near} pair-thresholds at or above (${closeAbove} within 0.05) all allowed; ${unrelated} unrelated pairs all rejected at 0.5`);
  });
});
