/**
 * Saved pairs at restored positions (corpus/position-pairs.ts) held to a plain model (map each member
 * to its position's representative, order by (a, b), drop repeats and self-pairs, lift Jaccards
 * verified at an unchanged threshold), over seeded random pair lists; and the saved columns used as
 * they are when they already are the answer (the CLI cache's second scan: no copy of every pair).
 */
import { describe, expect, it } from 'vitest';
import { pairsAtPositions } from '../../../src/corpus/position-pairs.ts';
import type { VerifiedPairs } from '../../../src/storage/verified-pairs.ts';
import { mulberry32Unit } from '../../fixtures/mulberry32.ts';
import type { StorageIds } from '../../../src/core/ids.ts';

function model(saved: VerifiedPairs, ids: Uint32Array, threshold: number, representative?: Int32Array): number[][] {
  const positionOf = new Map([...ids].map((id, p) => [id, p]));
  const rows = new Map<string, number[]>();
  for (let p = 0; p < saved.count; p++) {
    const x = positionOf.get(saved.a[p]!);
    const y = positionOf.get(saved.b[p]!);
    if (x === undefined || y === undefined) continue;
    const [a, b] = [representative ? representative[x]! : x, representative ? representative[y]! : y].sort((i, j) => i - j);
    const j = saved.threshold === threshold ? Math.max(saved.jaccard[p]!, threshold) : saved.jaccard[p]!;
    if (a !== b && !rows.has(`${a},${b}`)) rows.set(`${a},${b}`, [a!, b!, saved.distance[p]!, j]);
  }
  return [...rows.values()].sort((x, y) => x[0]! - y[0]! || x[1]! - y[1]!);
}

const rowsOf = (r: ReturnType<typeof pairsAtPositions>) => Array.from({ length: r.count }, (_, i) => [r.a[i]!, r.b[i]!, r.distance[i]!, r.jaccard[i]!]);

function randomCase(seed: number) {
  const rand = mulberry32Unit(seed);
  const n = 2 + Math.floor(rand() * 12);
  const m = Math.floor(rand() * 20);
  const sorted = rand() < 0.5;
  const rows: [number, number][] = [];
  for (let p = 0; p < m; p++) {
    const x = Math.floor(rand() * n);
    const y = Math.floor(rand() * n);
    if (x !== y) rows.push(sorted ? [Math.min(x, y), Math.max(x, y)] : [x, y]);
  }
  if (sorted) rows.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const saved: VerifiedPairs = {
    k: 3, threshold: 0.8, grouping: 'reference',
    a: Uint32Array.from(rows, (r) => r[0]), b: Uint32Array.from(rows, (r) => r[1]),
    distance: Uint8Array.from(rows, () => Math.floor(rand() * 4)), jaccard: Float32Array.from(rows, () => 0.8 + rand() * 0.2),
    histogram: new Uint32Array(4), count: rows.length,
  };
  // Stored ids: each position's own (as the CLI cache writes them), or shuffled, or with one left out.
  const shape = Math.floor(rand() * 3);
  const ids = Uint32Array.from({ length: n }, (_, p) => p);
  if (shape === 1) ids.reverse();
  const kept = shape === 2 ? ids.subarray(0, n - 1) : ids;
  const representative = rand() < 0.5 ? undefined : Int32Array.from({ length: kept.length }, (_, p) => (rand() < 0.2 && p > 0 ? p - 1 : p));
  return { saved, ids: kept as StorageIds, representative, threshold: rand() < 0.5 ? 0.8 : 0.7 };
}

describe('pairsAtPositions', () => {
  it('equals the model on 200 seeded random pair lists (seeds 1..200)', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const c = randomCase(seed);
      expect(rowsOf(pairsAtPositions(c.saved, c.ids, c.threshold, c.representative)), `seed ${seed}`).toEqual(model(c.saved, c.ids, c.threshold, c.representative));
    }
  });

  it('gives the saved columns themselves when each id is at its own position and the pairs are sorted representatives', () => {
    const saved: VerifiedPairs = {
      k: 3, threshold: 0.8, grouping: 'reference', a: Uint32Array.of(0, 0, 2), b: Uint32Array.of(2, 3, 3),
      distance: Uint8Array.of(1, 2, 3), jaccard: Float32Array.of(0.8, 0.9, 1), histogram: new Uint32Array(4), count: 3,
    };
    const ids = Uint32Array.of(0, 1, 2, 3) as StorageIds;
    const out = pairsAtPositions(saved, ids, 0.8, Int32Array.of(0, 0, 2, 3), true);
    expect(out.a.buffer).toBe(saved.a.buffer);
    // @ts-expect-error (checked by `npx tsc -b`) a plain Uint32Array is not a storage-id column
    pairsAtPositions(saved, Uint32Array.of(0, 1, 2, 3), 0.8);
    expect(out.b.buffer).toBe(saved.b.buffer);
    expect(out.distance.buffer).toBe(saved.distance.buffer);
    expect([...out.jaccard]).toEqual([Math.fround(0.8), Math.fround(0.9), 1]);
    // A saved Jaccard below the threshold it was accepted at is damage, on this path too.
    expect(() => pairsAtPositions({ ...saved, jaccard: Float32Array.of(0.5, 0.9, 1) }, ids, 0.8, undefined, true)).toThrow(/below the threshold/);
  });
});
