import { describe, expect, it } from 'vitest';
import xxhash from 'xxhash-wasm';
import { mulberry32Unit as rng } from '../../../fixtures/mulberry32.ts';
import {
  createFingerprintKernel,
  FOLD_ABORT,
  FOLD_SEP,
  FOLD_SOLO,
  FOLD_SS,
  FOLD_WORD,
  fingerprintKernelBytes,
  xxh64Bytes,
} from '../../../../src/core/simhash/fingerprint-kernel.ts';

describe('the fingerprint WebAssembly kernel', () => {
  it('is a valid module', () => {
    expect(WebAssembly.validate(fingerprintKernelBytes())).toBe(true);
  });

  it('hashes many ranges in one call, equal to xxhash-wasm h64, at any offset and length', async () => {
    const { h64Raw } = await xxhash();
    const kernel = createFingerprintKernel();
    kernel.memory.grow(1);
    const mem = new Uint8Array(kernel.memory.buffer);
    const dv = new DataView(kernel.memory.buffer);
    const DATA = 8192, STARTS = 0, ENDS = 2048, OUT = 4096, N = 250;
    let seed = 9;
    for (let i = 0; i < 4000; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      mem[DATA + i] = seed >>> 24;
    }
    for (let f = 0; f < N; f++) {
      const start = DATA + ((f * 37) % 3000);
      dv.setUint32(STARTS + 4 * f, start, true);
      dv.setUint32(ENDS + 4 * f, start + (f % 125), true); // lengths 0..124: every code path
    }
    kernel.hash(STARTS, ENDS, N, OUT);
    for (let f = 0; f < N; f++) {
      const s = dv.getUint32(STARTS + 4 * f, true);
      const e = dv.getUint32(ENDS + 4 * f, true);
      expect(dv.getBigUint64(OUT + 8 * f, true)).toBe(h64Raw(mem.slice(s, e)));
    }
  });

  it('tallies the bits of hashes into 64 counters, skipping repeats within a document when deduping', () => {
    const kernel = createFingerprintKernel();
    kernel.memory.grow(2);
    const mem = new Uint8Array(kernel.memory.buffer);
    const dv = new DataView(kernel.memory.buffer);
    const TEXT = 0, STARTS = 20000, ENDS = 30000, HASHES = 40000, TABLE = 60000, COUNTERS = 100000;
    // 600 ranges (more than the 255 the byte-sliced counters hold) over 300 distinct words, some over 32 bytes.
    const words = Array.from({ length: 300 }, (_, i) => (i % 7 === 0 ? 'long-word-'.repeat(4) : 'w') + i);
    let at = TEXT;
    const bounds: [number, number][] = [];
    for (const w of words) {
      const start = at;
      for (let i = 0; i < w.length; i++) mem[at++] = w.charCodeAt(i);
      bounds.push([start, at]);
    }
    const order = Array.from({ length: 600 }, (_, i) => (i * 7) % 300);
    order.forEach((w, f) => {
      dv.setInt32(STARTS + 4 * f, bounds[w][0], true);
      dv.setInt32(ENDS + 4 * f, bounds[w][1], true);
    });
    kernel.hash(STARTS, ENDS, 600, HASHES);
    const hashes = order.map((_, f) => dv.getBigUint64(HASHES + 8 * f, true));
    const bitsOf = (hs: bigint[]) => Array.from({ length: 64 }, (_, i) => hs.filter((h) => (h >> BigInt(i)) & 1n).length);
    const counters = new Int32Array(kernel.memory.buffer, COUNTERS, 64);
    const MASK = 1023;
    expect(kernel.tally(HASHES, 600, TABLE, MASK, COUNTERS, 1)).toBe(300);
    expect([...counters]).toEqual(bitsOf(hashes.slice(0, 300)));
    // A zeroed table is a new document: the same hashes count again (counters are added to).
    mem.fill(0, TABLE, TABLE + 8 * (MASK + 1));
    expect(kernel.tally(HASHES, 2, TABLE, MASK, COUNTERS, 1)).toBe(2);
    expect([...counters]).toEqual(bitsOf([...hashes.slice(0, 300), ...hashes.slice(0, 2)]));
    // Without dedupe every hash counts.
    counters.fill(0);
    expect(kernel.tally(HASHES, 600, TABLE, MASK, COUNTERS, 0)).toBe(600);
    expect([...counters]).toEqual(bitsOf(hashes));
    // A small table (8 slots): hashes whose low bits collide probe onward.
    mem.fill(0, TABLE, TABLE + 64);
    expect(kernel.tally(HASHES, 4, TABLE, 7, COUNTERS, 1)).toBe(4);
    // The hash 0 (never an empty slot) counts once per document too.
    for (const [f, h] of [0n, 5n, 0n, 5n, 0n].entries()) dv.setBigUint64(HASHES + 8 * f, h, true);
    mem.fill(0, TABLE, TABLE + 64);
    counters.fill(0);
    expect(kernel.tally(HASHES, 5, TABLE, 7, COUNTERS, 1)).toBe(2);
    expect([...counters]).toEqual(bitsOf([0n, 5n]));
  });

  it('counts every bit of 1,000 all-ones hashes: no SWAR lane overflows (15 per nibble, 255 per byte)', () => {
    const kernel = createFingerprintKernel();
    const dv = new DataView(kernel.memory.buffer);
    const HASHES = 0, COUNTERS = 8000, N = 1000;
    for (let f = 0; f < N; f++) dv.setBigUint64(HASHES + 8 * f, 0xffffffffffffffffn, true);
    const counters = new Int32Array(kernel.memory.buffer, COUNTERS, 64);
    expect(kernel.tally(HASHES, N, 0, 0, COUNTERS, 0)).toBe(N);
    expect([...counters]).toEqual(new Array(64).fill(N));
  });

  it('gives the sorted distinct low halves of hashes (sortedSet), with any bucket bits, leaving the hashes as they were', () => {
    const kernel = createFingerprintKernel();
    kernel.memory.grow(2);
    const HASHES = 0, KEYS = 40000, COUNTS = 60000, N = 3000;
    const words = new Uint32Array(kernel.memory.buffer);
    const next = rng(5);
    for (const bits of [1, 4, 11]) {
      for (const span of [2 ** 32, 50, 2 ** 20]) {
        // Low halves over 2^32, with repeats (50 values), or crowded into the first buckets.
        for (let i = 0; i < 2 * N; i++) words[HASHES / 4 + i] = Math.floor(next() * span);
        const hashes = words.slice(0, 2 * N);
        const low = Uint32Array.from({ length: N }, (_, f) => hashes[2 * f]).sort();
        const expected = low.filter((x, i) => i === 0 || x !== low[i - 1]);
        const m = kernel.sortedSet(HASHES, N, KEYS, COUNTS, bits);
        // Compared as text: a deep equal of long arrays is slow.
        expect(words.subarray(KEYS / 4, KEYS / 4 + m).join(), `bits ${bits}, span ${span}`).toBe(expected.join());
        expect(words.subarray(0, 2 * N).join()).toBe(hashes.join());
      }
    }
    expect(kernel.sortedSet(HASHES, 0, KEYS, COUNTS, 1)).toBe(0);
  });

  it('tokenizes ASCII in place: lowercased tokens joined by one space, bounds, and a capacity check', () => {
    const kernel = createFingerprintKernel();
    kernel.memory.grow(1);
    const mem = new Uint8Array(kernel.memory.buffer);
    const dv = new DataView(kernel.memory.buffer);
    const TABLE = 60000, STARTS = 61000, ENDS = 62000, OUT = 63000, IN = 1000;
    for (let b = 0; b < 128; b++) {
      const c = String.fromCharCode(b);
      mem[TABLE + b] = /[a-z0-9]/i.test(c) ? c.toLowerCase().charCodeAt(0) : 0;
    }
    const text = '  Hello, WORLD!  the quick-brown fox 42';
    mem.set(new TextEncoder().encode(text), IN);
    expect(kernel.compactAscii(IN, IN + text.length, TABLE, STARTS, ENDS, 100, OUT)).toBe(7);
    const w = dv.getInt32(OUT, true);
    expect(new TextDecoder().decode(mem.subarray(0, w))).toBe('hello world the quick brown fox 42');
    expect([dv.getInt32(STARTS + 4, true), dv.getInt32(ENDS + 4, true)]).toEqual([6, 11]);
    mem.set(new TextEncoder().encode(text), IN);
    expect(kernel.compactAscii(IN, IN + text.length, TABLE, STARTS, ENDS, 3, OUT)).toBe(-1);
    expect(kernel.compactAscii(IN, IN, TABLE, STARTS, ENDS, 3, OUT)).toBe(0);
    expect(dv.getInt32(OUT, true)).toBe(0);
  });

  it('tokenizes and folds text with non-ASCII code points in place, and says what it needs', () => {
    const kernel = createFingerprintKernel();
    kernel.memory.grow(8);
    const mem = new Uint8Array(kernel.memory.buffer);
    const dv = new DataView(kernel.memory.buffer);
    const ATAB = 100000, STARTS = 101000, ENDS = 102000, OUT = 103000, FTAB = 200000, IN = 1000;
    for (let b = 0; b < 128; b++) {
      const c = String.fromCharCode(b);
      mem[ATAB + b] = /[a-z0-9]/i.test(c) ? c.toLowerCase().charCodeAt(0) : 0;
    }
    const entry = (kind: number, cp: number) => (kind << 24) | cp;
    const fold = (cp: number, value: number) => dv.setInt32(FTAB + 4 * cp, value, true);
    // Blocks 0x00 and 0x20 are filled (É folds to é, ß to ss, the em dash separates); CJK block 0x4e is not.
    for (let cp = 0x80; cp < 0x100; cp++) fold(cp, entry(FOLD_WORD, cp));
    fold(0xc9, entry(FOLD_WORD, 0xe9));
    fold(0xdf, entry(FOLD_SS, 0x73));
    for (let cp = 0x2000; cp < 0x2100; cp++) fold(cp, entry(FOLD_SEP, cp));
    const run = (text: string, charMode: number, capacity = 100) => {
      const bytes = new TextEncoder().encode(text);
      mem.set(bytes, IN);
      const count = kernel.compactText(IN, IN + bytes.length, ATAB, FTAB, STARTS, ENDS, capacity, OUT, charMode);
      return count < 0 ? count : new TextDecoder().decode(mem.subarray(0, dv.getInt32(OUT, true)));
    };
    expect(run('Café ÉCOLE—Straße, longwordlongword x', 0)).toBe('café école strasse longwordlongword x');
    expect(run('一', 0)).toBe(-3 - 0x4e);
    for (let cp = 0x4e00; cp < 0x4f00; cp++) fold(cp, entry(FOLD_SOLO, cp));
    // One-character tokens: always a space between them in word mode, only where a separator stood in char mode.
    expect(run('Ab一丁 丂', 0)).toBe('ab 一 丁 丂');
    expect(run('Ab一丁 丂', 1)).toBe('ab一丁 丂');
    expect(run('a b c d', 0, 3)).toBe(-2);
    fold(0x301, entry(FOLD_ABORT, 0)); // a combining mark needs the full normalization
    expect(run('cafe\u0301', 0)).toBe(-1);
    expect(run('emoji 😀', 0)).toBe(-1); // beyond the BMP
  });

  it('gives every fingerprinter its own memory', () => {
    const a = createFingerprintKernel();
    const b = createFingerprintKernel();
    expect(a.memory).not.toBe(b.memory);
  });
});

describe('xxh64Bytes (the kernel hashing one whole array, for the plan bytes hashes)', () => {
  const h = (bytes: Uint8Array) => {
    const [hi, lo] = xxh64Bytes(bytes);
    return (BigInt(hi) << 32n) | BigInt(lo);
  };

  it('matches the published XXH64 test vectors (seed 0)', () => {
    const utf8 = (s: string) => new TextEncoder().encode(s);
    expect(h(utf8(''))).toBe(0xef46db3751d8e999n);
    expect(h(utf8('a'))).toBe(0xd24ec4f1a98c6e5bn);
    expect(h(utf8('abc'))).toBe(0x44bc2cf5ad770999n);
    expect(h(utf8('Nobody inspects the spammish repetition'))).toBe(0xfbcea83c8a378bf1n);
  });

  it('hashes parts as the one array they make (the scan cache hashes its columns without joining them)', () => {
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 37) & 255);
    const parts = [bytes.subarray(0, 0), bytes.subarray(0, 7), bytes.subarray(7, 500), bytes.subarray(500)];
    expect(xxh64Bytes(parts)).toEqual(xxh64Bytes(bytes));
    expect(xxh64Bytes([])).toEqual(xxh64Bytes(new Uint8Array(0)));
  });

  it('equals xxhash-wasm h64Raw on every length 0..300 and on inputs larger than the memory it had', async () => {
    const { h64Raw } = await xxhash();
    const next = rng(1);
    for (const len of [...Array.from({ length: 301 }, (_, i) => i), 70_000, 3_000_001]) {
      const bytes = new Uint8Array(len);
      for (let i = 0; i < len; i++) bytes[i] = Math.floor(next() * 256);
      expect(h(bytes), `length ${len}`).toBe(h64Raw(bytes));
    }
  });
});

it('the kernel module stays under 4 KB, which any browser compiles synchronously on its main thread', () => {
  // The pair view and the corpus build fingerprinters on the main thread; older Chromium refused
  // synchronous compiles over 4 KB there, and there is no JavaScript fallback.
  expect(fingerprintKernelBytes().length).toBeLessThan(4096);
});
