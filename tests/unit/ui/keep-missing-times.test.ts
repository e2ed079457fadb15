// The keep panel says when newest/oldest cannot order some grouped files (#27: the page tells the truth).
import { describe, expect, it } from 'vitest';
import { withoutTime } from '../../../src/ui/keep/use-modified-times.ts';

describe('grouped files without a modification time', () => {
  it('counts those with no time that no File can give (a restored document), not those a File still can', () => {
    const files = [new Blob(['a']), new File(['b'], 'b.txt'), new Blob(['c']), new Blob(['d'])];
    const modified = Float64Array.of(0, 0, 1_700_000_000_000, 0);
    expect(withoutTime(Uint32Array.of(0, 1, 2), { files, modified })).toBe(1);
    expect(withoutTime(Uint32Array.of(0, 1, 2, 3), { files })).toBe(3);
    expect(withoutTime(Uint32Array.of(2), { files, modified })).toBe(0);
  });
});
