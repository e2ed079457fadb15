import { describe, expect, it } from 'vitest';
import { batchLimitsFor, planBatches } from '../../../src/scan/plan-batches.ts';

describe('planBatches', () => {
  it('orders largest first, ties in input order, and cuts batches by bytes', () => {
    const sizes = [10, 500, 10, 300, 0, 10];
    const plan = planBatches(sizes, { targetBytes: 400, maxFiles: 100 });
    expect(Array.from(plan.order)).toEqual([1, 3, 0, 2, 5, 4]);
    // 500 closes a batch alone; 300+10+10+10 = 330 < 400 then the empty file ends the list.
    expect(Array.from(plan.bounds)).toEqual([0, 1, 6]);
    expect(plan.count).toBe(2);
  });

  it('closes a batch at maxFiles', () => {
    const plan = planBatches(new Array(7).fill(1), { targetBytes: 1e9, maxFiles: 3 });
    expect(Array.from(plan.bounds)).toEqual([0, 3, 6, 7]);
  });

  it('keeps every file exactly once for 100,000 files with sizes beyond 2^32', () => {
    const n = 100_000;
    const sizes = Array.from({ length: n }, (_, i) => (i % 13 === 0 ? 5e9 + i : (i * 7919) % 65536));
    const plan = planBatches(sizes, batchLimitsFor(sizes.reduce((a, b) => a + b, 0), 2));
    const seen = new Uint8Array(n);
    for (const i of plan.order) seen[i]++;
    expect(seen.every((c) => c === 1)).toBe(true);
    let descending = true;
    for (let d = 1; d < n; d++) if (sizes[plan.order[d - 1]] < sizes[plan.order[d]]) descending = false;
    expect(descending).toBe(true);
  });

  it('an empty list has no batches', () => {
    expect(planBatches([], { targetBytes: 1, maxFiles: 1 }).count).toBe(0);
  });
});

describe('batchLimitsFor', () => {
  it('aims for ~16 batches per worker within 256 KiB..8 MiB', () => {
    expect(batchLimitsFor(1e9, 2).targetBytes).toBe(8 * 1024 * 1024);
    expect(batchLimitsFor(1e3, 2).targetBytes).toBe(256 * 1024);
    expect(batchLimitsFor(64 * 1024 * 1024, 2).targetBytes).toBe(2 * 1024 * 1024);
  });
});
