import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { walkFiles } from '../../../src/cli/walk-files.ts';
import { positionsIn } from '../../../src/scan/scan-docs.ts';

const root = mkdtempSync(join(tmpdir(), 'simsift-walk-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('walkFiles', () => {
  it('lists paths in code-unit order, a folder sorting as its name and a slash', () => {
    // 'a-c' < 'a/b' < 'a0' by code units ('-' < '/' < '0'), though the folder 'a' sorts before 'a-c' by name.
    for (const dir of ['a', 'a/z', 'B', 'é']) mkdirSync(join(root, dir), { recursive: true });
    for (const file of ['a-c', 'a/b', 'a/z/y', 'a/z-', 'a0', 'B/x', 'b', 'é/f', 'Z', '😀']) writeFileSync(join(root, file), 'text');
    const paths = [...['a-c', 'a/b', 'a/z/y', 'a/z-', 'a0', 'B/x', 'b', 'é/f', 'Z', '😀']].sort();
    expect(paths).toEqual(['B/x', 'Z', 'a-c', 'a/b', 'a/z-', 'a/z/y', 'a0', 'b', 'é/f', '😀']);
    return walkFiles(root, () => undefined).then((walked) => expect(walked).toEqual(paths));
  });
});

describe('positionsIn', () => {
  it('finds each path in a listing, in one pass when both are sorted and by lookup when not', () => {
    const listing = ['a', 'b/c', 'b/d', 'e'];
    expect([...positionsIn(['a', 'b/d', 'c', 'e'], listing)]).toEqual([0, 2, -1, 3]);
    expect([...positionsIn(['e', 'a', 'x', 'b/c'], listing)]).toEqual([3, 0, -1, 1]);
    expect([...positionsIn(['a', 'e'], ['e', 'a'])]).toEqual([1, 0]);
    expect([...positionsIn([], listing)]).toEqual([]);
    // A few paths in a long listing: by binary search.
    const long = Array.from({ length: 100 }, (_, i) => `d/${String(i).padStart(3, '0')}`);
    expect([...positionsIn(['d/000', 'd/042', 'd/0425', 'd/099', 'e'], long)]).toEqual([0, 42, -1, 99, -1]);
  });
});
