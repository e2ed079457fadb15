import { describe, expect, it } from 'vitest';
import { pairsInView } from '../../../src/ui/export/pairs-in-view.ts';
import { datedFileName } from '../../../src/ui/export/download.ts';

const table = {
  offsets: Int32Array.from([0, 3, 5]),
  members: Int32Array.from([7, 2, 9, 4, 1]),
  distanceToReference: Uint8Array.from([0, 2, 255, 0, 5]),
  jaccardToReference: Float32Array.from([1, 0.9, 0.85, 1, 0.8]),
};

describe('pairsInView', () => {
  it('pairs each member with its reference, groups in view order, numbered as shown', () => {
    const p = pairsInView(table, Uint32Array.from([1, 0]));
    expect(p.count).toBe(3);
    expect([...p.group]).toEqual([2, 1, 1]);
    expect([...p.a]).toEqual([4, 7, 7]);
    expect([...p.b]).toEqual([1, 2, 9]);
    expect([...p.distance]).toEqual([5, 2, 255]);
    expect(p.jaccard[0]).toBeCloseTo(0.8);
  });
  it('exports only the groups in view', () => {
    expect(pairsInView(table, Uint32Array.from([1])).count).toBe(1);
    expect(pairsInView(table, new Uint32Array(0)).count).toBe(0);
  });
});

describe('datedFileName', () => {
  it('adds the local date', () => {
    expect(datedFileName('simsift-pairs', new Date(2026, 0, 5))).toBe('simsift-pairs-2026-01-05.csv');
  });
});
