import { describe, expect, it, beforeAll } from 'vitest';
import xxhash from 'xxhash-wasm';
import type { XXHashAPI } from 'xxhash-wasm';
import { xxh64Bytes, xxh64Range, xxh64String, xxhOut } from '../../../../src/core/simhash/xxh64.ts';
import { mulberry32Unit as rng } from '../../../fixtures/mulberry32.ts';

let api: XXHashAPI;
beforeAll(async () => {
  api = await xxhash();
});

const ALPHABET = [
  'a', 'b', 'z', ' ', '0', '9', 'é', 'ß', 'Σ', 'ς', 'İ', 'ı', '東', '京', 'の', 'カ', '한', 'ไ', '😀', '👍🏽',
  '\u0301', '\u0000', '\n', '\uffff', '𝔘',
];

describe('xxh64', () => {
  it('matches the published XXH64 test vectors (seed 0)', () => {
    expect(xxh64String('')).toBe(0xef46db3751d8e999n);
    expect(xxh64String('a')).toBe(0xd24ec4f1a98c6e5bn);
    expect(xxh64String('abc')).toBe(0x44bc2cf5ad770999n);
    expect(xxh64String('Nobody inspects the spammish repetition')).toBe(0xfbcea83c8a378bf1n);
  });

  it('equals xxhash-wasm h64 on every length 0..300 (all code paths: <4, <8, <32, stripes)', () => {
    const next = rng(1);
    for (let len = 0; len <= 300; len++) {
      const bytes = new Uint8Array(len);
      for (let i = 0; i < len; i++) bytes[i] = Math.floor(next() * 256);
      const [hi, lo] = xxh64Bytes(bytes);
      expect((BigInt(hi) << 32n) | BigInt(lo)).toBe(api.h64Raw(bytes));
    }
  });

  it('equals xxhash-wasm h64 on 3000 random strings including non-ASCII', () => {
    const next = rng(2);
    for (let n = 0; n < 3000; n++) {
      const len = Math.floor(next() * 80);
      let s = '';
      for (let i = 0; i < len; i++) s += ALPHABET[Math.floor(next() * ALPHABET.length)];
      expect(xxh64String(s)).toBe(api.h64(s));
    }
  });

  it('hashes a sub-range of a larger buffer at any offset', () => {
    const next = rng(3);
    const big = new Uint8Array(1000);
    for (let i = 0; i < big.length; i++) big[i] = Math.floor(next() * 256);
    const sub = big.subarray(7, 993);
    const view = new DataView(sub.buffer, sub.byteOffset, sub.byteLength);
    for (let n = 0; n < 200; n++) {
      const a = Math.floor(next() * sub.length);
      const b = a + Math.floor(next() * (sub.length - a));
      xxh64Range(sub, view, a, b);
      expect((BigInt(xxhOut[0]) << 32n) | BigInt(xxhOut[1])).toBe(api.h64Raw(sub.slice(a, b)));
    }
  });
});
