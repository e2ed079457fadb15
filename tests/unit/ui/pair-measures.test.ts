import { describe, expect, it } from 'vitest';
import { compareLengths } from '../../../src/ui/bit-diff/pair-measures.ts';
import { containmentSorted, jaccardSorted } from '../../../src/core/groups/jaccard.ts';
import { intersectionSize } from '../../../src/core/simhash/simhash.ts';

describe('containment', () => {
  it('is the shared share of the smaller set: 1 when one set lies inside the other', () => {
    const a = Uint32Array.of(1, 3, 5, 7);
    const b = Uint32Array.of(1, 3, 5, 7, 9, 11, 13, 15);
    expect(intersectionSize(a, b)).toBe(4);
    expect(containmentSorted(a, b)).toBe(1);
    expect(jaccardSorted(a, b)).toBe(0.5);
    expect(containmentSorted(Uint32Array.of(1, 2), Uint32Array.of(2, 3))).toBe(0.5);
    expect(containmentSorted(new Uint32Array(0), b)).toBe(0);
  });
});

describe('compareLengths', () => {
  it('says a text repeated ten times is 10× as long, and calls it out', () => {
    const c = compareLengths(2163, 21630);
    expect(c).toEqual({ ratio: 10, ratioText: '10.0×', detail: 'B is 10.0× as long as A (21,630 characters vs 2,163)', uneven: true });
    expect(compareLengths(2000, 2100)).toMatchObject({ ratioText: '1.05×', uneven: false });
    expect(compareLengths(500, 500).detail).toBe('Same length (500 characters)');
    expect(compareLengths(0, 10).ratioText).toBe('∞');
  });
});
