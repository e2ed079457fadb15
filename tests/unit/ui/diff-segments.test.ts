import { describe, expect, it } from 'vitest';
import { chunkIndexOf, chunkSegments, chunkStarts, mapOffset, markShared, runsToSegments, sharedPassageStart, SHARED, syncedScrollTop } from '../../../src/ui/pair-view/diff-segments.ts';

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

describe('chunkSegments', () => {
  const join = (chunks: { text: string; kind: number }[][]) => chunks.map((c) => c.map((s) => s.text).join('')).join('');
  it('keeps small texts in one chunk', () => {
    expect(chunkSegments([{ text: 'a\nb', kind: 0 }], 100)).toEqual([[{ text: 'a\nb', kind: 0 }]]);
    expect(chunkSegments([], 100)).toEqual([]);
  });
  it('cuts after a newline once a chunk reaches the target, keeping kinds and all text', () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i} of the text\n`).join('');
    const segs = [
      { text: lines.slice(0, 300), kind: 0 },
      { text: lines.slice(300, 420), kind: 1 },
      { text: lines.slice(420), kind: 0 },
    ];
    const chunks = chunkSegments(segs, 100);
    expect(join(chunks)).toBe(lines);
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks.slice(0, -1)) {
      expect(c[c.length - 1].text.endsWith('\n')).toBe(true);
      expect(c.reduce((n, s) => n + s.text.length, 0)).toBeGreaterThanOrEqual(100);
    }
    expect(chunks.flat().filter((s) => s.kind === 1).map((s) => s.text).join('')).toBe(lines.slice(300, 420));
  });
  it('cuts a text without newlines at a space after 8 × target characters', () => {
    const text = 'word '.repeat(1000);
    const chunks = chunkSegments([{ text, kind: 2 }], 100);
    expect(join(chunks)).toBe(text);
    for (const c of chunks) expect(c.reduce((n, s) => n + s.text.length, 0)).toBeLessThanOrEqual(800);
    expect(chunks[0][0].text.endsWith(' ')).toBe(true);
  });
});

describe('mapOffset', () => {
  // A = "the  quick\nbrown fox" ; B = "the slow brown dog fox": points at each word and change.
  const alignA = Uint32Array.from([0, 5, 11, 17, 20]);
  const alignB = Uint32Array.from([0, 4, 9, 15, 22]);
  it('maps a position to the same distance past the last alignment point', () => {
    expect(mapOffset(alignA, alignB, 0)).toBe(0);
    expect(mapOffset(alignA, alignB, 12)).toBe(10); // "rown" in A -> "rown" in B
    expect(mapOffset(alignB, alignA, 10)).toBe(12);
  });
  it('never maps past the next point on the other side', () => {
    // A removed 10 characters that B does not have: inside them maps to where B goes on.
    expect(mapOffset(Uint32Array.from([0, 10, 20]), Uint32Array.from([0, 0, 10]), 7)).toBe(0);
    expect(mapOffset(Uint32Array.from([0, 10, 20]), Uint32Array.from([0, 0, 10]), 15)).toBe(5);
    expect(mapOffset(new Uint32Array(0), new Uint32Array(0), 7)).toBe(7);
  });
});

describe('chunkStarts', () => {
  it('gives each chunk its start offset', () => {
    expect([...chunkStarts([[{ text: 'ab', kind: 0 }, { text: 'c', kind: 1 }], [{ text: 'de', kind: 0 }]])]).toEqual([0, 3]);
  });
});

describe('chunkIndexOf', () => {
  it('finds the block holding an offset', () => {
    const starts = Uint32Array.of(0, 4096, 8200);
    expect([0, 4095, 4096, 8199, 8200, 99999].map((o) => chunkIndexOf(starts, o))).toEqual([0, 0, 1, 1, 2, 2]);
  });
});

describe('the shared passage of a contained pair', () => {
  const kinds = Uint8Array.of(2, 0, 2, 0, 2);
  const lengths = Uint32Array.of(100, 5, 30, 60, 10);
  it('starts at the first unchanged run long enough to be a passage, not a shared common word', () => {
    expect(sharedPassageStart(lengths, kinds)).toBe(135);
    expect(sharedPassageStart(lengths, kinds, 100)).toBe(-1);
  });
  it('marks only such runs, before chunking', () => {
    const text = 'x'.repeat(205);
    const marked = markShared(runsToSegments(text, lengths, kinds));
    expect(marked.map((s) => s.kind)).toEqual([2, 0, 2, SHARED, 2]);
  });
});
