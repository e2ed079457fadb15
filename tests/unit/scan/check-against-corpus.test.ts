import { describe, expect, it } from 'vitest';
import { exactMatches, nearCandidates, tableQueryPays } from '../../../src/scan/check-against-corpus.ts';

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
