/**
 * The scan bundle (core/export/scan-bundle.ts) read back exactly, and every file that is not a good
 * bundle refused with a sentence that says what it is: damaged, cut short, another format, another
 * SimSift version, another fingerprint rule, impossible columns.
 */
import { describe, expect, it } from 'vitest';
import { BundleProblem, decodeScanBundle, encodeScanBundle, foldersToChoose, matchFolder, pageRootOf, type ScanBundle } from '../../../../src/core/export/scan-bundle.ts';
import { DocStatus } from '../../../../src/core/documents/document-status.ts';
import { FINGERPRINT_RULE } from '../../../../src/core/simhash/fingerprint-rule.ts';

function bundle(): ScanBundle {
  return {
    simsift: '0.1.0',
    rule: FINGERPRINT_RULE,
    root: '/srv/archive',
    name: 'archive',
    scannedAt: 1_795_000_000_000,
    settings: { features: { kind: 'word-shingle', n: 3 }, weights: 'binary', stopWords: false },
    k: 3,
    kAuto: false,
    threshold: 0.8,
    grouping: 'reference',
    exclusions: { patterns: ['*.log'], extensions: [], minSize: null, maxSize: 1000 },
    documents: {
      count: 3,
      paths: ['a.txt', 'sub/b.txt', 'sub/caf\u00e9 \ud800.txt'],
      sizes: Float64Array.of(10, 20, 0),
      modified: Float64Array.of(1_700_000_000_123, 1_700_000_001_000, 0),
      status: Uint8Array.of(DocStatus.ok, DocStatus.ok, DocStatus.empty),
      flags: Uint8Array.of(0, 1, 0),
      hi: Uint32Array.of(0xdeadbeef, 0xdeadbeee, 0),
      lo: Uint32Array.of(1, 2, 0),
      words: Uint32Array.of(100, 101, 0),
      hashHi: Uint32Array.of(5, 6, 0),
      hashLo: Uint32Array.of(7, 8, 0),
    },
    pairs: { count: 1, a: Uint32Array.of(0), b: Uint32Array.of(1), distance: Uint8Array.of(1), jaccard: Float32Array.of(0.95), histogram: Uint32Array.of(0, 1, 0, 0) },
  };
}

async function bytesOf(b: ScanBundle): Promise<Uint8Array> {
  const parts = await encodeScanBundle(b);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** The bundle with its JSON head edited and the checksum made again (a well-formed file of another kind). */
async function withHead(bytes: Uint8Array, edit: (head: Record<string, unknown>) => void): Promise<Uint8Array> {
  const magic = 'SIMSIFT-SCAN-BUNDLE\n'.length;
  const length = new DataView(bytes.buffer, bytes.byteOffset).getUint32(magic, true);
  const head = JSON.parse(new TextDecoder().decode(bytes.subarray(magic + 4, magic + 4 + length))) as Record<string, unknown>;
  edit(head);
  const headBytes = new TextEncoder().encode(JSON.stringify(head));
  const len = new Uint8Array(4);
  new DataView(len.buffer).setUint32(0, headBytes.byteLength, true);
  const rest = bytes.subarray(magic + 4 + length, bytes.byteLength - 32);
  const body = new Uint8Array([...bytes.subarray(0, magic), ...len, ...headBytes, ...rest]);
  const sum = new Uint8Array(await crypto.subtle.digest('SHA-256', body));
  return new Uint8Array([...body, ...sum]);
}

/** The same bytes with the column region changed at `offset` from its start, checksum made again. */
async function withColumnByte(bytes: Uint8Array, fromEnd: number, value: number): Promise<Uint8Array> {
  const body = bytes.slice(0, bytes.byteLength - 32);
  body[body.byteLength - fromEnd] = value;
  const sum = new Uint8Array(await crypto.subtle.digest('SHA-256', body));
  return new Uint8Array([...body, ...sum]);
}

async function problem(bytes: Uint8Array): Promise<string> {
  try {
    await decodeScanBundle(bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(BundleProblem);
    return (error as Error).message;
  }
  throw new Error('the bundle was accepted');
}

describe('the scan bundle', () => {
  it('reads back exactly what was written, names that are not UTF-8 included', async () => {
    const original = bundle();
    const read = await decodeScanBundle(await bytesOf(original));
    expect(read).toEqual(original);
    expect(read.documents.paths[2]).toBe('sub/caf\u00e9 \ud800.txt');
  });

  it('reads an empty scan', async () => {
    const empty = bundle();
    empty.documents = { count: 0, paths: [], sizes: new Float64Array(), modified: new Float64Array(), status: new Uint8Array(), flags: new Uint8Array(), hi: new Uint32Array(), lo: new Uint32Array(), words: new Uint32Array(), hashHi: new Uint32Array(), hashLo: new Uint32Array() };
    empty.pairs = { count: 0, a: new Uint32Array(), b: new Uint32Array(), distance: new Uint8Array(), jaccard: new Float32Array(), histogram: new Uint32Array() };
    expect(await decodeScanBundle(await bytesOf(empty))).toEqual(empty);
  });

  it('refuses a damaged or truncated file', async () => {
    const bytes = await bytesOf(bundle());
    const flipped = bytes.slice();
    flipped[bytes.byteLength - 100] ^= 1;
    expect(await problem(flipped)).toMatch(/damaged \(its checksum does not match/);
    expect(await problem(bytes.subarray(0, bytes.byteLength - 10))).toMatch(/damaged/);
    expect(await problem(bytes.subarray(0, 30))).toMatch(/not a SimSift scan bundle/);
  });

  it('names a foreign file as what it is', async () => {
    const text = (s: string) => new TextEncoder().encode(s.padEnd(80, ' '));
    expect(await problem(text('\ufeffgroup,path_a,path_b,distance,similarity_estimate,jaccard\r\n'))).toMatch(/the pairs CSV, not a bundle/);
    expect(await problem(text('{"format": "simsift-plan", "version": 2, "root": null, "rows": []}'))).toMatch(/a keep plan \(JSON\)/);
    expect(await problem(text('\ufeffgroup,path,role,reason,match\r\n'))).toMatch(/a keep plan \(CSV\)/);
    expect(await problem(text('SIMSIFT-SCAN-CACHE\n....'))).toMatch(/a scan cache/);
    expect(await problem(text('PAR1....'))).toMatch(/Parquet/);
    expect(await problem(text('Hello, world'))).toMatch(/not a SimSift scan bundle/);
  });

  it('refuses a bundle of another format version or fingerprint rule, naming both', async () => {
    const bytes = await bytesOf(bundle());
    expect(await problem(await withHead(bytes, (h) => (h.version = 2)))).toMatch(/a newer version of SimSift \(0\.1\.0, bundle format 2\); this page reads format 1/);
    expect(await problem(await withHead(bytes, (h) => (h.rule = FINGERPRINT_RULE - 1)))).toMatch(new RegExp(`fingerprint rule ${FINGERPRINT_RULE - 1}; this page uses rule ${FINGERPRINT_RULE}`));
    expect(await problem(await withHead(bytes, (h) => (h.format = 'other')))).toMatch(/damaged \(head\)/);
  });

  it('refuses settings and columns a scan cannot have written', async () => {
    const bytes = await bytesOf(bundle());
    expect(await problem(await withHead(bytes, (h) => (h.settings = { features: { kind: 'words', n: 3 }, weights: 'binary', stopWords: false })))).toMatch(/damaged \(settings\)/);
    expect(await problem(await withHead(bytes, (h) => (h.k = 65)))).toMatch(/damaged \(k\)/);
    expect(await problem(await withHead(bytes, (h) => (h.threshold = 0)))).toMatch(/damaged \(threshold\)/);
    expect(await problem(await withHead(bytes, (h) => (h.count = 4)))).toMatch(/damaged \(sizes\)/);
    // The last columns: a, b (4 bytes each), distance (1), jaccard (4), histogram (16). b[0] = 0: not a < b.
    expect(await problem(await withColumnByte(bytes, 16 + 4 + 1 + 4, 0))).toMatch(/damaged \(pairs\)/);
    const twice = bundle();
    twice.documents.paths[1] = 'a.txt';
    expect(await problem(await bytesOf(twice))).toMatch(/damaged \(path "a.txt"\)/);
    const pending = bundle();
    pending.documents.status[0] = DocStatus.pending;
    expect(await problem(await bytesOf(pending))).toMatch(/damaged \(status\)/);
  });
});

describe('matching a chosen folder', () => {
  it('takes the scanned folder itself (its name before each path) or the one folder it held', () => {
    const b = bundle();
    expect(matchFolder(b, ['archive/a.txt', 'archive/sub/b.txt', 'archive/new.txt'])).toEqual({ prefix: 'archive/', matched: 2, chosen: 'archive' });
    expect(matchFolder(b, ['copy/a.txt'])).toEqual({ prefix: 'copy/', matched: 1, chosen: 'copy' });
    const parent = bundle();
    parent.documents.paths = ['docs/a.txt', 'docs/b.txt', 'docs/c.txt'];
    expect(matchFolder(parent, ['docs/a.txt', 'docs/b.txt'])).toEqual({ prefix: '', matched: 2, chosen: 'docs' });
    expect(matchFolder(b, ['other/x.txt'])).toMatchObject({ matched: 0 });
    expect(matchFolder(b, [])).toMatchObject({ matched: 0 });
  });
});

describe('the folder the page asks for', () => {
  it('is the scanned folder, or also the one folder it held', () => {
    const b = bundle();
    expect(foldersToChoose(b)).toEqual(['archive']);
    b.documents.paths = ['docs/a.txt', 'docs/sub/b.txt', 'docs/c.txt'];
    expect(foldersToChoose(b)).toEqual(['archive', 'docs']);
    b.documents.paths = ['docs/a.txt', 'other/b.txt', 'c.txt'];
    expect(foldersToChoose(b)).toEqual(['archive']);
  });
});

describe('pageRootOf', () => {
  it('is the folder the page\'s paths are relative to on the CLI\'s machine, or null when the chosen folder is named otherwise', () => {
    // simsift scan /srv/parent (holding only docs/): the page's paths are the bundle's.
    expect(pageRootOf({ root: '/srv/parent', name: 'parent' }, { prefix: '', chosen: 'docs' })).toBe('/srv/parent');
    // The scanned folder itself chosen: the paths gained its name, so they are relative to its parent.
    expect(pageRootOf({ root: '/srv/lic', name: 'lic' }, { prefix: 'lic/', chosen: 'lic' })).toBe('/srv');
    expect(pageRootOf({ root: '/lic', name: 'lic' }, { prefix: 'lic/', chosen: 'lic' })).toBe('/');
    expect(pageRootOf({ root: 'C:\\data\\lic', name: 'lic' }, { prefix: 'lic/', chosen: 'lic' })).toBe('C:\\data');
    expect(pageRootOf({ root: 'C:\\lic', name: 'lic' }, { prefix: 'lic/', chosen: 'lic' })).toBe('C:\\');
    // Chosen under another name: "copy/a.txt" is no path under /srv.
    expect(pageRootOf({ root: '/srv/lic', name: 'lic' }, { prefix: 'copy/', chosen: 'copy' })).toBeNull();
  });
});
