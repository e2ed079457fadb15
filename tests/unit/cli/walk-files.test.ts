import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { walkFiles } from '../../../src/cli/walk-files.ts';
import { listingPositions } from '../../../src/cli/stat-listing.ts';

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

describe('listingPositions', () => {
  it('finds each path in a listing, in one pass when both are sorted and by lookup when not', () => {
    const listing = ['a', 'b/c', 'b/d', 'e'];
    expect([...listingPositions(['a', 'b/d', 'c', 'e'], listing)]).toEqual([0, 2, -1, 3]);
    expect([...listingPositions(['e', 'a', 'x', 'b/c'], listing)]).toEqual([3, 0, -1, 1]);
    expect([...listingPositions(['a', 'e'], ['e', 'a'])]).toEqual([1, 0]);
    expect([...listingPositions([], listing)]).toEqual([]);
  });
});
