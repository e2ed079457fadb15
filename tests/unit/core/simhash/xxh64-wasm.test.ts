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

  it('gives every fingerprinter its own memory', () => {
    const a = createXxh64Kernel()!;
    const b = createXxh64Kernel()!;
    expect(a.memory).not.toBe(b.memory);
  });
});
