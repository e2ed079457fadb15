import { describe, expect, it } from 'vitest';
import { runsToSegments, syncedScrollTop } from '../../../src/ui/pair-view/diff-segments.ts';

describe('runsToSegments', () => {
  it('cuts a text along its runs', () => {
    expect(runsToSegments('the quick fox', Uint32Array.from([4, 5, 4]), Uint8Array.from([0, 1, 0]))).toEqual([
      { text: 'the ', kind: 0 },
      { text: 'quick', kind: 1 },
      { text: ' fox', kind: 0 },
    ]);
  });
  it('returns uncovered text as unchanged and ignores runs past the end', () => {
    expect(runsToSegments('abcdef', Uint32Array.from([2]), Uint8Array.from([2]))).toEqual([
      { text: 'ab', kind: 2 },
      { text: 'cdef', kind: 0 },
    ]);
    expect(runsToSegments('ab', Uint32Array.from([5, 3]), Uint8Array.from([0, 1]))).toEqual([{ text: 'ab', kind: 0 }]);
  });
});

describe('syncedScrollTop', () => {
  it('keeps the same relative position', () => {
    expect(syncedScrollTop(50, 200, 100, 400, 100)).toBe(150);
    expect(syncedScrollTop(100, 200, 100, 1100, 100)).toBe(1000);
  });
  it('is 0 when either pane does not scroll', () => {
    expect(syncedScrollTop(0, 100, 100, 400, 100)).toBe(0);
    expect(syncedScrollTop(50, 200, 100, 80, 100)).toBe(0);
  });
});
