import { mkdtemp, mkdir, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeIngestApi } from '../../../src/cli/node-ingest-api.ts';
import { ingestApi } from '../../../src/workers/ingest-api.ts';
import { DocStatus, MAX_DOCUMENT_BYTES } from '../../../src/core/documents/document-status.ts';
import { DEFAULT_SETTINGS } from '../../../src/core/simhash/settings.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'simsift-node-ingest-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A few hundred words of text that differs by `seed` (so every file has its own fingerprint). */
function prose(seed: number, words = 300): string {
  const out: string[] = [];
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out.push(`w${(x >>> 8) % 5000}`);
  }
  return out.join(' ');
}

/** The same files through the app's ingestBatch, given as bytes (what the worker computes from them). */
async function viaIngestBatch(names: string[], contents: (string | Uint8Array)[]) {
  const items = contents.map((c, i) => ({ name: names[i], bytes: typeof c === 'string' ? new TextEncoder().encode(c) : c }));
  return ingestApi.ingestBatch(items, DEFAULT_SETTINGS);
}

describe('nodeIngestApi.ingestPaths', () => {
  it('gives each file what ingestBatch gives its bytes, in the order of the paths (text, HTML, binary, short, empty)', async () => {
    const contents: (string | Uint8Array)[] = [
      prose(1),
      `<html><body><p>${prose(2)}</p></body></html>`,
      new Uint8Array([0, 1, 2, 3, 0, 0, 255, 254]),
      'two words',
      '',
      prose(1),
    ];
    const names = ['a.txt', 'b.html', 'c.bin', 'd.txt', 'e.txt', 'f.txt'].map((n) => join(dir, n));
    await Promise.all(names.map((n, i) => writeFile(n, contents[i])));
    const r = await nodeIngestApi.ingestPaths(names, DEFAULT_SETTINGS);
    const expected = await viaIngestBatch(names, contents);
    for (const key of ['status', 'hi', 'lo', 'words', 'hashHi', 'hashLo'] as const) expect([...r[key]], key).toEqual([...expected[key]]);
    // The same skips; only the empty file's message differs: this reader knows it is a regular file
    // (a browser's 0-byte file may be a FIFO or a device, so ingestBatch does not call it empty).
    const empty = expected.skipped.findIndex((s) => s.reason === 'empty');
    expect(r.skipped[empty].message).toBe('Empty file: there is no text to compare.');
    expect(r.skipped.map((s, i) => (i === empty ? { ...s, message: '' } : s))).toEqual(expected.skipped.map((s, i) => (i === empty ? { ...s, message: '' } : s)));
    expect([...r.status]).toEqual([DocStatus.ok, DocStatus.ok, DocStatus.binary, DocStatus.tooShort, DocStatus.empty, DocStatus.ok]);
  });

  it('reports a missing file as unreadable and one over the document limit as too large, without failing the batch', async () => {
    const ok = join(dir, 'ok.txt');
    const large = join(dir, 'large.txt');
    const sub = join(dir, 'a-folder');
    await writeFile(ok, prose(3));
    await writeFile(large, '');
    await truncate(large, MAX_DOCUMENT_BYTES + 1); // sparse: never read
    await mkdir(sub, { recursive: true });
    const r = await nodeIngestApi.ingestPaths([join(dir, 'missing.txt'), ok, large, sub], DEFAULT_SETTINGS);
    expect([...r.status]).toEqual([DocStatus.unreadable, DocStatus.ok, DocStatus.tooLarge, DocStatus.unreadable]);
    expect(r.skipped.map((s) => [s.index, s.reason])).toEqual([
      [0, 'unreadable'],
      [2, 'too-large'],
      [3, 'unreadable'],
    ]);
    expect(r.skipped[0].message).toMatch(/ENOENT/);
    expect(r.skipped[1].message).toMatch(/64\.0 MB/);
    expect(r.skipped[2].message).toMatch(/EISDIR/);
  });

  it('keeps each call its own when calls overlap and files fill more than one read round (8 MB)', { timeout: 120_000 }, async () => {
    // 9 files of about 1 MB each per call: each call reads in two rounds, and the calls run concurrently.
    const calls = [0, 1].map((c) =>
      Array.from({ length: 9 }, (_, i) => ({ path: join(dir, `big-${c}-${i}.txt`), text: prose(100 + c * 9 + i, 150_000) })),
    );
    await Promise.all(calls.flat().map((f) => writeFile(f.path, f.text)));
    const results = await Promise.all(calls.map((files) => nodeIngestApi.ingestPaths(files.map((f) => f.path), DEFAULT_SETTINGS)));
    for (const [c, files] of calls.entries()) {
      const expected = await viaIngestBatch(files.map((f) => f.path), files.map((f) => f.text));
      expect([...results[c].hi], `call ${c}`).toEqual([...expected.hi]);
      expect([...results[c].lo], `call ${c}`).toEqual([...expected.lo]);
      expect([...results[c].status]).toEqual(files.map(() => DocStatus.ok));
    }
  });
});

describe('nodeIngestApi.ingestBatch with files sent as paths (IngestItem.disk)', () => {
  it('reads them in the thread: what their bytes give; a file changed or gone since its listing is unreadable', async () => {
    const { stat } = await import('node:fs/promises');
    const contents = [prose(11), prose(12), '', prose(13), prose(14)];
    const names = ['p.txt', 'q.txt', 'r.txt', 's.txt', 't.txt'].map((n) => join(dir, n));
    await Promise.all(names.map((n, i) => writeFile(n, contents[i])));
    const listed = await Promise.all(names.map(async (n) => ({ path: n, size: (await stat(n)).size, mtimeMs: (await stat(n)).mtimeMs })));
    await writeFile(names[3], prose(15)); // changed after its listing
    await rm(names[4]); // gone
    const items = names.map((name, i) => ({ name, disk: listed[i] }));
    const r = await nodeIngestApi.ingestBatch(items, DEFAULT_SETTINGS);
    // A second batch reuses the thread's read buffer: still the bytes of its own files.
    const again = await nodeIngestApi.ingestBatch(items.slice(0, 2).reverse(), DEFAULT_SETTINGS);
    const expected = await viaIngestBatch(names.slice(0, 3), contents.slice(0, 3));
    for (const key of ['status', 'hi', 'lo', 'words'] as const) {
      expect([...r[key]].slice(0, 3), key).toEqual([...expected[key]]);
      expect([...again[key]], key).toEqual([expected[key][1], expected[key][0]]);
    }
    expect([...r.status].slice(3)).toEqual([DocStatus.unreadable, DocStatus.unreadable]);
    expect(r.skipped.find((s) => s.index === 3)?.message).toContain('the file changed since it was listed');
    expect(r.skipped.find((s) => s.index === 4)?.message).toContain('ENOENT');
  });
});

describe('nodeIngestApi.verifyPairs and chainGroups with files sent as paths (IngestItem.disk)', () => {
  it('reads them in the thread: the Jaccards and chain verdicts their bytes give', async () => {
    const { stat } = await import('node:fs/promises');
    // Two near copies (a shared run of words) and a third text.
    const contents = [prose(21), `${prose(21, 250)} ${prose(22, 50)}`, prose(23)];
    const names = ['v0.txt', 'v1.txt', 'v2.txt'].map((n) => join(dir, n));
    await Promise.all(names.map((n, i) => writeFile(n, contents[i])));
    const disk = await Promise.all(names.map(async (path) => ({ name: path, disk: { path, size: (await stat(path)).size, mtimeMs: (await stat(path)).mtimeMs } })));
    const bytes = () => names.map((name, i) => ({ name, bytes: new TextEncoder().encode(contents[i]) }));
    const pairs = { a: Uint32Array.from([0, 0, 1]), b: Uint32Array.from([1, 2, 2]), count: 3 };
    const expected = await ingestApi.verifyPairs(bytes(), pairs, DEFAULT_SETTINGS);
    expect(expected[0]).toBeGreaterThan(0.5);
    expect([...(await nodeIngestApi.verifyPairs(disk, pairs, DEFAULT_SETTINGS))]).toEqual([...expected]);
    const job = { offsets: Int32Array.from([0, 2]), members: Int32Array.from([0, 1]), pairs: { a: Uint32Array.from([0]), b: Uint32Array.from([1]), distance: Uint8Array.from([1]), jaccard: Float32Array.from([expected[0]]), count: 1 } };
    const chained = await ingestApi.chainGroups(bytes(), job, DEFAULT_SETTINGS, 0.5);
    expect(await nodeIngestApi.chainGroups(disk, job, DEFAULT_SETTINGS, 0.5)).toEqual(chained);
  });
});
