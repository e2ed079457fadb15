import { describe, expect, it } from 'vitest';
import { checkFile, exactMatches, nearCandidates, tableQueryPays } from '../../../src/corpus/check-against-corpus.ts';
import { ingestApi } from '../../../src/workers/ingest-api.ts';
import { createFingerprinter } from '../../../src/core/simhash/fingerprinter.ts';
import { DEFAULT_SETTINGS } from '../../../src/core/simhash/settings.ts';

const OK = 1;

describe('nearCandidates', () => {
  it('finds fingerprints within k, closest first, and skips documents that are not ok', () => {
    const q = { hi: 0x12345678, lo: 0x9abcdef0 };
    const hi = new Uint32Array([q.hi, q.hi ^ 0b111, q.hi, q.hi ^ 0xffff, q.hi ^ 1]);
    const lo = new Uint32Array([q.lo ^ 0b11, q.lo, q.lo, q.lo, q.lo]);
    const status = new Uint8Array([OK, OK, 2, OK, OK]);
    const found = nearCandidates(hi, lo, status, OK, q.hi, q.lo, 3);
    expect([...found.ids]).toEqual([4, 0, 1]);
    expect([...found.distance]).toEqual([1, 2, 3]);
    // k = 2 leaves out the distance-3 one.
    expect([...nearCandidates(hi, lo, status, OK, q.hi, q.lo, 2).ids]).toEqual([4, 0]);
  });

  it('caps the answer at `limit`', () => {
    const n = 100;
    const found = nearCandidates(new Uint32Array(n), new Uint32Array(n), new Uint8Array(n).fill(OK), OK, 0, 0, 0, 5);
    expect(found.count).toBe(5);
    expect([...found.ids]).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('exactMatches', () => {
  it('matches the content hash only where it is valid, and never the empty hash', () => {
    const hashHi = new Uint32Array([7, 7, 7, 0]);
    const hashLo = new Uint32Array([9, 9, 8, 0]);
    expect(exactMatches(hashHi, hashLo, 7, 9, (p) => p !== 1)).toEqual([0]);
    expect(exactMatches(hashHi, hashLo, 0, 0, () => true)).toEqual([]);
  });
});

describe('tableQueryPays', () => {
  it('rejects tables at k = 12 (13 tables of 5-bit keys at 1M) and accepts them when keys are long', () => {
    expect(tableQueryPays(1_000_000, 13, 5)).toBe(false);
    expect(tableQueryPays(1_000_000, 10, 32)).toBe(true);
  });
});

describe('checkFile agrees with the scan', () => {
  it('measures two HTML pages with one word changed as the scan does (markup stripped), not over their tags', async () => {
    const body = Array.from({ length: 300 }, (_, i) => `<p class="para" data-n="${i}">word${i} of the page</p>`).join('\n');
    const pageA = `<html><head><style>p { color: red }</style></head><body>${body}</body></html>`;
    const pageB = pageA.replace('word150 of', 'changed of');
    const bytesA = new TextEncoder().encode(pageA);
    const bytesB = new TextEncoder().encode(pageB);
    const settings = DEFAULT_SETTINGS;
    const stored = await ingestApi.ingestBatch([{ name: 'site/a.html', bytes: bytesA.slice() }], settings);
    const docs = {
      count: 1,
      paths: ['site/a.html'],
      files: [new File([bytesA], 'a.html')],
      sizes: stored.sizes,
      status: stored.status,
      flags: stored.flags,
      hi: stored.hi,
      lo: stored.lo,
      words: stored.words,
      hashHi: stored.hashHi,
      hashLo: stored.hashLo,
    };
    const maker = createFingerprinter(settings);
    const check = await checkFile(docs, 16, 'site/b.html', bytesB, {
      ingest: (name, bytes) => ingestApi.ingestBatch([{ name, bytes: bytes.slice() }], settings),
      featureSet: (text) => maker.featureSet(text),
      threshold: 0.8,
    });
    // The scan's verifier on the same two files.
    const [scanJaccard] = await ingestApi.verifyPairs(
      [{ name: 'site/a.html', bytes: bytesA.slice() }, { name: 'site/b.html', bytes: bytesB.slice() }],
      { a: new Uint32Array([0]), b: new Uint32Array([1]), count: 1 },
      settings,
    );
    expect(scanJaccard).toBeGreaterThan(0.95);
    expect(check.near).toHaveLength(1);
    expect(check.near[0]!.jaccard).toBe(scanJaccard);
  });
});
