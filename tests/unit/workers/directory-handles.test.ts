/**
 * Walking and reading through directory handles, over a plain object tree standing in for the
 * browser's FileSystemHandles (the real ones are driven by tests/e2e/ingest-handles.spec.ts): the
 * paths, the hidden and unreadable records, and `ingestHandles` reporting a file it cannot open.
 */
import { describe, expect, it } from 'vitest';
import { createPathOpener, mergeListings, walkHandles, type DirectoryEntryHandle } from '../../../src/workers/directory-handles.ts';
import { fakeDirectory, fakeFile, type TreeProbe } from './fake-handles.ts';
import { ingestApi } from '../../../src/workers/ingest-api.ts';
import { DocStatus } from '../../../src/core/documents/document-status.ts';
import { DEFAULT_SETTINGS } from '../../../src/core/simhash/settings.ts';

const PROSE =
  'The quick brown fox jumps over the lazy dog while the farmer watches from the old wooden fence, ' +
  'thinking about the harvest that will come when the autumn rains finally arrive in the valley.';

describe('walkHandles', () => {
  it('gives each file its path under the root folder\'s name, in path order, leaving hidden names out with a record', async () => {
    const root = fakeDirectory('notes', {
      'b.txt': 'b',
      sub: { 'z.txt': 'z', 'a.txt': 'a', deeper: { 'x.md': 'x' } },
      'A.txt': 'A',
      '.git': { config: 'c' },
      node_modules: { pkg: { 'index.js': 'i' } },
      '.DS_Store': 'd',
      'rtl-\u202Etxt.exe': 'r',
    });
    const listing = await walkHandles([root, fakeFile('loose.txt', 'l'), fakeFile('.hidden.txt', 'h')]);
    expect(listing.paths).toEqual(['loose.txt', 'notes/A.txt', 'notes/b.txt', 'notes/rtl-\u202Etxt.exe', 'notes/sub/a.txt', 'notes/sub/deeper/x.md', 'notes/sub/z.txt']);
    const byPath = new Map(listing.skipped.map((s) => [s.path, s]));
    expect([...byPath.keys()].sort()).toEqual(['.hidden.txt', 'notes/.DS_Store', 'notes/.git/', 'notes/node_modules/']);
    expect(byPath.get('notes/.git/')!.message).toMatch(/^Hidden folder: its contents were not read/);
    expect(byPath.get('notes/.DS_Store')!.message).toMatch(/^Hidden file/);
    expect(listing.skipped.every((s) => s.reason === 'hidden')).toBe(true);
  });

  it('reports a folder it cannot list, and keeps what was listed before the failure', async () => {
    const denied = new DOMException('no access', 'NotAllowedError');
    const root = fakeDirectory('top', { 'ok.txt': 'fine' });
    const locked = fakeDirectory('locked', denied);
    const half: DirectoryEntryHandle = {
      ...fakeDirectory('half', {}),
      async *values() {
        yield fakeFile('first.txt', 'one');
        throw new DOMException('gone', 'NotFoundError');
      },
    };
    const listing = await walkHandles([root, locked, half]);
    expect(listing.paths).toEqual(['half/first.txt', 'top/ok.txt']);
    const byPath = new Map(listing.skipped.map((s) => [s.path, s]));
    expect(byPath.get('locked/')).toEqual({ path: 'locked/', size: 0, reason: 'unreadable', message: 'Could not be read (permission denied).' });
    expect(byPath.get('half/')!.reason).toBe('unreadable');
    expect(byPath.get('half/')!.message).toBe('Could not be read (file not found; the 1 entries listed before that are scanned).');
  });
});

describe('walkHandles with stat', () => {
  it('gives each listed path the size and time statHandles gives it, -1 and 0 for a file deleted since it was listed', async () => {
    const tree = { 'b.txt': 'bee', sub: { 'z.txt': 'zed!', 'gone.txt': 'was here', 'a.txt': 'a' }, 'A.txt': 'capital', '.hidden': 'h' };
    const probe = { listings: 0, opens: 0, gone: new Set(['gone.txt']) };
    const roots = [fakeDirectory('notes', tree, 0, probe), fakeFile('loose.txt', 'loose', probe)];
    const listing = await walkHandles(roots, { stat: true });
    expect(listing.paths).toEqual(['loose.txt', 'notes/A.txt', 'notes/b.txt', 'notes/sub/a.txt', 'notes/sub/gone.txt', 'notes/sub/z.txt']);
    // Opened once each, through the handle the walk listed: no folder listed twice.
    expect([probe.listings, probe.opens]).toEqual([2, 6]);
    ingestApi.openHandles(roots as unknown as FileSystemHandle[], 'stat-walk');
    const asked = await ingestApi.statHandles('stat-walk', listing.paths);
    expect([...listing.stats!.sizes]).toEqual([...asked.sizes]);
    expect([...listing.stats!.modified]).toEqual([...asked.modified]);
    expect([...listing.stats!.sizes]).toEqual([5, 7, 3, 1, -1, 4]);
    expect([...listing.stats!.modified]).toEqual([1005, 1007, 1003, 1001, 0, 1004]);
  });

  it('walked in shares, merges to the whole walk: paths, stats and skips, each file opened once', async () => {
    const denied = new DOMException('no access', 'NotAllowedError');
    const tree = (probe: TreeProbe) => [
      fakeDirectory('notes', { 'b.txt': 'bee', sub: { 'z.txt': 'zed!', 'a.txt': 'a', gone: 'x' }, '.git': { c: 'c' }, '.env': 'e', 'A.txt': 'capital', locked: denied, more: { 'm.txt': 'mmm' } }, 0, probe),
      fakeDirectory('two', { 'x.txt': 'xx', y: { 'y.txt': 'yyy' } }, 0, probe),
      fakeFile('loose.txt', 'loose', probe),
      fakeDirectory('.hidden-root', { 'h.txt': 'h' }, 0, probe),
    ];
    const whole = await walkHandles(tree({ listings: 0, opens: 0 }), { stat: true });
    for (const count of [2, 3]) {
      const probe = { listings: 0, opens: 0, gone: new Set(['gone']) };
      const roots = tree(probe);
      const shares = await Promise.all(Array.from({ length: count }, (_, index) => walkHandles(roots, { stat: true, share: { index, count } })));
      const merged = mergeListings(shares);
      expect(merged.paths).toEqual(whole.paths);
      expect([...merged.stats!.sizes]).toEqual([...whole.stats!.sizes.map((size, i) => (whole.paths[i] === 'notes/sub/gone' ? -1 : size))]);
      expect([...merged.stats!.modified]).toEqual([...whole.stats!.modified.map((t, i) => (whole.paths[i] === 'notes/sub/gone' ? 0 : t))]);
      expect(merged.skipped.map((x) => x.path).sort()).toEqual(whole.skipped.map((x) => x.path).sort());
      expect(probe.opens).toBe(whole.paths.length);
    }
  });

  it('takes no stats unless asked', async () => {
    const probe = { listings: 0, opens: 0 };
    const listing = await walkHandles([fakeDirectory('notes', { 'a.txt': 'a', sub: { 'b.txt': 'b' } }, 0, probe)]);
    expect(listing.stats).toBeUndefined();
    expect(probe.opens).toBe(0);
  });
});

describe('createPathOpener', () => {
  it('opens a path the walk gave, and fails with NotFoundError for one that is gone', async () => {
    const roots = [fakeDirectory('notes', { sub: { 'a.txt': 'alpha' } }), fakeFile('loose.txt', 'loose')];
    const open = createPathOpener(roots);
    expect(await (await open('notes/sub/a.txt')).text()).toBe('alpha');
    expect(await (await open('loose.txt')).text()).toBe('loose');
    await expect(open('notes/sub/gone.txt')).rejects.toMatchObject({ name: 'NotFoundError' });
    await expect(open('notes/nowhere/a.txt')).rejects.toMatchObject({ name: 'NotFoundError' });
    await expect(open('other/a.txt')).rejects.toMatchObject({ name: 'NotFoundError' });
  });
});

describe('ingestApi.ingestHandles', () => {
  it('reads the paths itself, reports one it cannot open as unreadable, and returns only the Files whose bytes it did not keep', async () => {
    const root = fakeDirectory('notes', { 'a.txt': PROSE, 'empty.txt': '', sub: { 'b.txt': PROSE } });
    ingestApi.openHandles([root] as unknown as FileSystemHandle[], 'test-1');
    const r = await ingestApi.ingestHandles('test-1', ['notes/a.txt', 'notes/empty.txt', 'notes/gone.txt', 'notes/sub/b.txt'], DEFAULT_SETTINGS, { keepBytes: true });
    expect(Array.from(r.status)).toEqual([DocStatus.ok, DocStatus.empty, DocStatus.unreadable, DocStatus.ok]);
    expect(r.skipped.find((s) => s.index === 2)).toMatchObject({ reason: 'unreadable', message: expect.stringMatching(/^Could not be read \(file not found\)/) });
    expect([r.hi[0], r.lo[0]]).toEqual([r.hi[3], r.lo[3]]);
    const n = new TextEncoder().encode(PROSE).length;
    expect(Array.from(r.contents!.offsets)).toEqual([0, n, n, n, 2 * n]);
    // Every file's bytes are in the kept contents: no File goes back to the page.
    expect(r.files).toEqual([null, null, null, null]);
    // A file whose bytes are not kept (past the budget) comes back as the File opened, for the saved corpus to keep.
    const limits = { maxBytes: 1e9, readAheadBytes: 10, readAhead: 4, keepBytesBudget: 0 };
    const big = await ingestApi.ingestHandles('test-1', ['notes/a.txt', 'notes/gone.txt'], DEFAULT_SETTINGS, { keepBytes: true, limits });
    expect(big.files.map((f) => f?.name ?? null)).toEqual(['a.txt', null]);
    expect([big.hi[0], big.lo[0]]).toEqual([r.hi[0], r.lo[0]]);
    // Another scan's token is refused: the worker never reads under handles it was not given for that scan.
    await expect(ingestApi.ingestHandles('test-0', ['notes/a.txt'], DEFAULT_SETTINGS)).rejects.toThrow(/was not handed to this worker/);
  });
});
