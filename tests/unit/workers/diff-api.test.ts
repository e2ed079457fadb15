import { describe, expect, it } from 'vitest';
import { diffApi } from '../../../src/workers/diff-api.ts';
import { ADDED, REMOVED, SAME, type DiffResult } from '../../../src/core/text/diff-runs.ts';

/** Reassembles each side from its runs, and the marked text per side. */
function sides(a: string, b: string, r: DiffResult) {
  const cut = (text: string, lengths: Uint32Array, kinds: Uint8Array) => {
    let at = 0;
    let marked = '';
    const parts: string[] = [];
    lengths.forEach((len, i) => {
      const piece = text.slice(at, at + len);
      parts.push(piece);
      if (kinds[i] !== SAME) marked += `[${piece}]`;
      at += len;
    });
    return { whole: parts.join(''), covered: at, marked };
  };
  return { a: cut(a, r.aLengths, r.aKinds), b: cut(b, r.bLengths, r.bKinds) };
}

describe('diffApi.diffTexts', () => {
  it('marks a changed word on both sides', () => {
    const a = 'The tide rose slowly over the grey harbour wall.\nBoats waited.\n';
    const b = 'The tide rose quickly over the grey harbour wall.\nBoats waited.\n';
    const r = diffApi.diffTexts(a, b);
    expect(r.status).toBe('words');
    const s = sides(a, b, r);
    expect(s.a.covered).toBe(a.length);
    expect(s.b.covered).toBe(b.length);
    expect(s.a.marked).toBe('[slowly]');
    expect(s.b.marked).toBe('[quickly]');
    expect([...r.aKinds].every((k) => k === SAME || k === REMOVED)).toBe(true);
    expect([...r.bKinds].every((k) => k === SAME || k === ADDED)).toBe(true);
    expect(r.removedChars).toBe(6);
    expect(r.addedChars).toBe(7);
  });
  it('marks an added sentence only on the new side', () => {
    const a = 'First line.\nSecond line.\n';
    const b = 'First line.\nA new sentence here.\nSecond line.\n';
    const s = sides(a, b, diffApi.diffTexts(a, b));
    expect(s.a.marked).toBe('');
    expect(s.b.marked).toBe('[A new sentence here.\n]');
  });
  it('reports identical texts without marks', () => {
    const r = diffApi.diffTexts('same text', 'same text');
    expect(r.status).toBe('identical');
    expect(r.removedChars + r.addedChars).toBe(0);
  });
  it('refuses texts over the size cap without diffing', () => {
    const r = diffApi.diffTexts('a'.repeat(600), 'b'.repeat(600), { maxChars: 1000 });
    expect(r.status).toBe('too-large');
    expect([...r.aLengths]).toEqual([600]);
  });
  it('stays within its budget on 1 MB near-duplicates', () => {
    const words = ['harbour', 'tide', 'boat', 'net', 'gull', 'rope', 'sail', 'keel', 'mast', 'wave'];
    let a = '';
    let i = 0;
    while (a.length < 1_000_000) {
      a += words[(i * 7 + (i >> 3)) % 10] + (i % 13 === 12 ? '.\n' : ' ');
      i++;
    }
    const b = a.slice(0, 300_000) + 'inserted words ' + a.slice(300_000, 700_000).replace('tide', 'TIDE') + a.slice(700_000);
    const r = diffApi.diffTexts(a, b, { timeoutMs: 3000 });
    expect(r.status).toBe('words');
    const s = sides(a, b, r);
    expect(s.a.covered).toBe(a.length);
    expect(s.b.covered).toBe(b.length);
    expect(r.addedChars).toBeLessThan(100);
  });
});
