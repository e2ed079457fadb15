import { describe, expect, it } from 'vitest';
import { sortScoredPairs } from '../../../../src/core/groups/group-table.ts';

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
