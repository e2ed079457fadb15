import { describe, expect, it } from 'vitest';
import { diffApi } from '../../../src/workers/diff-api.ts';
import { ADDED, REMOVED, SAME, type DiffResult } from '../../../src/core/text/diff-runs.ts';
import { readFileSync } from 'node:fs';
import { loadDocumentText } from '../../../src/core/text/document-text.ts';
import { docxOf, paragraphsOf } from '../../fixtures/licences/docx-rendering.ts';

/** Reassembles each side from its runs, and the marked text per side. */
function sides(a: string, b: string, r: DiffResult) {
  const cut = (text: string, lengths: Uint32Array, kinds: Uint8Array) => {
    let at = 0;
    let marked = '';
    const parts: string[] = [];
    const pieces: string[] = [];
    lengths.forEach((len, i) => {
      const piece = text.slice(at, at + len);
      parts.push(piece);
      if (kinds[i] !== SAME) marked += `[${piece}]`;
      if (kinds[i] !== SAME) pieces.push(piece);
      at += len;
    });
    return { whole: parts.join(''), covered: at, marked, pieces };
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
    // The line break after it is layout, not a word: only the sentence is marked.
    expect(s.b.marked).toBe('[A new sentence here.]');
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

describe('diffApi.diffTexts reads documents as words', () => {
  const gpl = readFileSync('tests/fixtures/licences/GPL-2.txt', 'utf8');

  it('GPL-2.txt against a DOCX rendering of it marks only the two real changes', async () => {
    // Every paragraph rewrapped to one line (as Word keeps it), runs of spaces gone, and two real edits.
    const edited = gpl.replace('Everyone is permitted', 'Everybody is permitted').replace('the GNU Lesser General Public License', 'the GNU Library General Public License');
    const paragraphs = paragraphsOf(edited);
    const doc = await loadDocumentText(docxOf(paragraphs), 'GPL-2.docx');
    if (!doc.ok) throw new Error(doc.message);
    const r = diffApi.diffTexts(gpl, doc.text, { timeoutMs: 10_000 });
    const s = sides(gpl, doc.text, r);
    expect(s.a.covered).toBe(gpl.length);
    expect(s.b.covered).toBe(doc.text.length);
    expect(s.a.pieces).toEqual(['Everyone', 'Lesser']);
    expect(s.b.pieces).toEqual(['Everybody', 'Library']);
    expect(r.removedChars).toBe('Everyone'.length + 'Lesser'.length);
    expect([r.removedWords, r.addedWords, r.changes.length]).toEqual([2, 2, 2]);
    // Each change is found where it is in the text file, and maps to the same word in the DOCX's text.
    const at = gpl.indexOf('Everyone');
    expect(r.changes[0]).toBe(at);
    const i = [...r.alignA].lastIndexOf(at);
    expect(doc.text.slice(r.alignB[i], r.alignB[i] + 9)).toBe('Everybody');
  });

  it('line wrapping, runs of spaces and a hyphenated line end are not changes', () => {
    const a = 'The licenses for most software are designed\nto take  away your free-\ndom to share.\n';
    const b = 'The licenses for most software are designed to take away your freedom to share.';
    const r = diffApi.diffTexts(a, b);
    expect(sides(a, b, r).a.marked).toBe('');
    expect(sides(a, b, r).b.marked).toBe('');
    expect(r.removedChars + r.addedChars).toBe(0);
  });

  it('case and punctuation are changes unless asked to ignore them, which compares the fingerprint\'s words', () => {
    const a = 'This License applies to any program, or other work.';
    const b = 'this license applies to any program or other work';
    const strict = sides(a, b, diffApi.diffTexts(a, b));
    expect(strict.a.pieces).toEqual(['This License', ',', '.']);
    expect(strict.b.pieces).toEqual(['this license']);
    const loose = diffApi.diffTexts(a, b, { ignoreCaseAndPunctuation: true });
    expect(loose.removedChars + loose.addedChars).toBe(0);
    // Still a real change under the loose comparison.
    const c = 'this license applies to any program or other code';
    expect(sides(a, c, diffApi.diffTexts(a, c, { ignoreCaseAndPunctuation: true })).b.pieces).toEqual(['code']);
  });
});
