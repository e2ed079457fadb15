import { describe, expect, it } from 'vitest';
import xxhash from 'xxhash-wasm';
import { createXxh64Kernel, xxh64KernelBytes } from '../../../../src/core/simhash/xxh64-wasm.ts';

describe('xxh64 WebAssembly kernel', () => {
  it('is a valid module', () => {
    expect(WebAssembly.validate(xxh64KernelBytes() as Uint8Array<ArrayBuffer>)).toBe(true);
  });

  it('hashes many ranges in one call, equal to xxhash-wasm h64, at any offset and length', async () => {
    const { h64Raw } = await xxhash();
    const kernel = createXxh64Kernel()!;
    expect(kernel).not.toBeNull();
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
    const kernel = createXxh64Kernel()!;
    const dv = new DataView(kernel.memory.buffer);
    const HASHES = 0, TABLE = 1024, COUNTERS = 4096, MASK = 15;
    const a = 0x0102030405060708n;
    const b = 0xff00000000000001n;
    const bitsOf = (hs: bigint[]) => Array.from({ length: 64 }, (_, i) => hs.filter((h) => (h >> BigInt(i)) & 1n).length);
    [a, b, a, a].forEach((h, i) => dv.setBigUint64(HASHES + 8 * i, h, true));
    const counters = new Int32Array(kernel.memory.buffer, COUNTERS, 64);
    expect(kernel.tally(HASHES, 4, TABLE, MASK, 1, COUNTERS, 1)).toBe(2);
    expect([...counters]).toEqual(bitsOf([a, b]));
    // A new stamp is a new document: the same hashes count again (counters are added to).
    expect(kernel.tally(HASHES, 2, TABLE, MASK, 2, COUNTERS, 1)).toBe(2);
    expect([...counters]).toEqual(bitsOf([a, b, a, b]));
    // Without dedupe every hash counts.
    counters.fill(0);
    expect(kernel.tally(HASHES, 4, TABLE, MASK, 2, COUNTERS, 0)).toBe(4);
    expect([...counters]).toEqual(bitsOf([a, b, a, a]));
    // Colliding slots (same low bits) probe onward.
    const c = 0x0000000100000008n; // low bits collide with a's slot under MASK
    dv.setBigUint64(HASHES, a, true);
    dv.setBigUint64(HASHES + 8, c, true);
    dv.setBigUint64(HASHES + 16, c, true);
    expect(kernel.tally(HASHES, 3, TABLE, MASK, 3, COUNTERS, 1)).toBe(2);
  });

  it('counts past the byte-sliced counters\' capacity (flushed every 255 hashes)', () => {
    const kernel = createXxh64Kernel()!;
    kernel.memory.grow(2);
    const dv = new DataView(kernel.memory.buffer);
    const HASHES = 0, COUNTERS = 100000, TABLE = 110000, MASK = 2047;
    const n = 1000;
    const hs: bigint[] = [];
    let x = 0x9e3779b97f4a7c15n;
    for (let i = 0; i < n; i++) {
      // Mostly all-ones so every byte lane fills; some random ones, all distinct.
      x = (x * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
      const h = i % 3 === 0 ? x : ((1n << 64n) - 1n) ^ BigInt(i);
      hs.push(h);
      dv.setBigUint64(HASHES + 8 * i, h, true);
    }
    const counters = new Int32Array(kernel.memory.buffer, COUNTERS, 64);
    expect(kernel.tally(HASHES, n, TABLE, MASK, 1, COUNTERS, 0)).toBe(n);
    expect([...counters]).toEqual(Array.from({ length: 64 }, (_, i) => hs.filter((h) => (h >> BigInt(i)) & 1n).length));
  });

  it('tokenizes ASCII in place: lowercased tokens joined by one space, bounds, and a capacity check', () => {
    const kernel = createXxh64Kernel()!;
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

  it('gives every fingerprinter its own memory', () => {
    const a = createXxh64Kernel()!;
    const b = createXxh64Kernel()!;
    expect(a.memory).not.toBe(b.memory);
  });
});
