import { describe, expect, it } from 'vitest';
import { matchPickedFiles } from '../../../src/ui/pair-view/match-picked-files.ts';

function file(name: string, relative = ''): File {
  const f = new File(['x'], name);
  Object.defineProperty(f, 'webkitRelativePath', { value: relative });
  return f;
}

describe('matchPickedFiles', () => {
  it('prefers the same relative path, falls back to the file name, leaves unmatched paths out', () => {
    const a1 = file('a.txt', 'other/a.txt');
    const a2 = file('a.txt', 'corpus/x/a.txt');
    const b = file('b.txt');
    const m = matchPickedFiles(['corpus/x/a.txt', 'corpus/b.txt', 'corpus/c.txt'], [a1, a2, b]);
    expect(m.get('corpus/x/a.txt')).toBe(a2);
    expect(m.get('corpus/b.txt')).toBe(b);
    expect(m.has('corpus/c.txt')).toBe(false);
  });
});
