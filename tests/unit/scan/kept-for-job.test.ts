// A verification job's kept sets: views of shared memory cross as they are (nothing copied on the
// page), sets in ordinary memory are packed into one array, as posting a view would copy its buffer.
import { describe, expect, it } from 'vitest';
import { keptForJob } from '../../../src/scan/verify-candidates.ts';
import { keptSetAt } from '../../../src/core/groups/packed-sets.ts';

describe('keptForJob', () => {
  it('hands shared sets over as views and packs the others, set for set the same words', () => {
    const shared = new Uint32Array(new SharedArrayBuffer(4 * 10));
    shared.forEach((_, i) => (shared[i] = i + 1));
    const sets = [shared.subarray(2, 5), shared.subarray(7, 8)];
    const docs = Uint32Array.from([4, 1]);
    const viewed = keptForJob(sets, docs, 4);
    expect('views' in viewed.kept && viewed.kept.views[0]).toBe(sets[0]);
    expect(viewed.buffers).toEqual([docs.buffer]);
    const plain = sets.map((set) => set.slice());
    const packed = keptForJob(plain, Uint32Array.from([4, 1]), 4);
    expect('words' in packed.kept).toBe(true);
    expect(packed.buffers).toHaveLength(3);
    for (const { kept } of [viewed, packed]) expect([0, 1].map((i) => Array.from(keptSetAt(kept, i)))).toEqual([[3, 4, 5], [8]]);
  });
});
