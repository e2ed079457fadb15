import { describe, expect, it } from 'vitest';
import { changeAnchors, chunkIndexOf, chunkSegments, chunkStarts, mapOffset, runsToSegments, syncedScrollTop } from '../../../src/ui/pair-view/diff-segments.ts';

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
  // A = "the quick brown fox" ; B = "the slow brown dog fox"
  // A runs: "the " same, "quick" removed, " brown " same, "fox" same  (merged: [4 same][5 rem][10 same])
  // B runs: "the " same, "slow" added, " brown " same, "dog " added, "fox" same
  const aL = Uint32Array.from([4, 5, 10]);
  const aK = Uint8Array.from([0, 1, 0]);
  const bL = Uint32Array.from([4, 4, 7, 4, 3]);
  const bK = Uint8Array.from([0, 2, 0, 2, 0]);
  it('maps unchanged text to the same text on the other side', () => {
    expect(mapOffset(aL, aK, bL, bK, 0)).toBe(0);
    expect(mapOffset(aL, aK, bL, bK, 10)).toBe(9); // "brown" in A -> "brown" in B
    expect(mapOffset(aL, aK, bL, bK, 16)).toBe(19); // "fox" in A -> "fox" in B (after "dog ")
    expect(mapOffset(bL, bK, aL, aK, 19)).toBe(16);
  });
  it('maps a position inside a change to the place of the change', () => {
    expect(mapOffset(aL, aK, bL, bK, 6)).toBe(8); // inside "quick" -> where B's unchanged text resumes
    expect(mapOffset(bL, bK, aL, aK, 6)).toBe(9); // inside "slow" -> after "quick" in A
    expect(mapOffset(aL, aK, bL, bK, 99)).toBe(22); // past the end -> end
  });
});

describe('chunkStarts', () => {
  it('gives each chunk its start offset', () => {
    expect([...chunkStarts([[{ text: 'ab', kind: 0 }, { text: 'c', kind: 1 }], [{ text: 'de', kind: 0 }]])]).toEqual([0, 3]);
  });
});

describe('changeAnchors', () => {
  it('lists removals and additions in A coordinates, in order', () => {
    // A = "the quick brown fox" ; B = "the slow brown dog fox"
    const aL = Uint32Array.from([4, 5, 10]);
    const aK = Uint8Array.from([0, 1, 0]);
    const bL = Uint32Array.from([4, 4, 7, 4, 3]);
    const bK = Uint8Array.from([0, 2, 0, 2, 0]);
    // "quick" removed at 4 (and "slow" added at the same place), "dog " added before "fox" at 16.
    expect([...changeAnchors(aL, aK, bL, bK)]).toEqual([4, 16]);
  });
  it('handles changes at the ends and one-sided diffs', () => {
    // A = "x abc" ; B = "abc y": "x " removed at 0, " y" added at the end (5).
    expect([...changeAnchors(Uint32Array.from([2, 3]), Uint8Array.from([1, 0]), Uint32Array.from([3, 2]), Uint8Array.from([0, 2]))]).toEqual([0, 5]);
    expect([...changeAnchors(Uint32Array.from([3]), Uint8Array.from([0]), Uint32Array.from([3]), Uint8Array.from([0]))]).toEqual([]);
  });
  it('agrees with mapOffset on a longer random diff', async () => {
    const { diffTexts } = await import('../../../src/workers/diff-api.ts');
    const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa'.split(' ');
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) % 1000;
    const a = Array.from({ length: 400 }, () => words[rnd() % 10]).join(' ');
    const b = a
      .split(' ')
      .map((w) => (rnd() < 30 ? 'CHANGED' : w))
      .join(' ');
    const r = diffTexts(a, b);
    const anchors = [...changeAnchors(r.aLengths, r.aKinds, r.bLengths, r.bKinds)];
    // Every removal start is an anchor; an addition is anchored where mapOffset puts it, or at the
    // start of the removal it replaces (a removal ending exactly there).
    const removalStartByEnd = new Map<number, number>();
    const expected = new Set<number>();
    let at = 0;
    r.aLengths.forEach((len, i) => {
      if (r.aKinds[i] !== 0) {
        expected.add(at);
        removalStartByEnd.set(at + len, at);
      }
      at += len;
    });
    at = 0;
    r.bLengths.forEach((len, i) => {
      if (r.bKinds[i] !== 0) {
        const m = mapOffset(r.bLengths, r.bKinds, r.aLengths, r.aKinds, at);
        expected.add(removalStartByEnd.get(m) ?? m);
      }
      at += len;
    });
    expect(anchors).toEqual([...expected].sort((x, y) => x - y));
    expect(anchors.length).toBeGreaterThan(3);
  });
});

describe('chunkIndexOf', () => {
  it('finds the block holding an offset', () => {
    const starts = Uint32Array.of(0, 4096, 8200);
    expect([0, 4095, 4096, 8199, 8200, 99999].map((o) => chunkIndexOf(starts, o))).toEqual([0, 0, 1, 1, 2, 2]);
  });
});
