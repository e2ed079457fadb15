import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Fingerprint64 } from '../../../src/core/simhash/fingerprint64.ts';
import {
  fingerprintToKey,
  halvesToKey,
  halvesToKeyBytes,
  keyBytesToHalves,
  keyToFingerprint,
  keyToHalves,
} from '../../../src/storage/key-codec.ts';

const samples: Array<[number, number]> = [
  [0, 0],
  [0, 1],
  [0, 0xffffffff],
  [1, 0],
  [0x7fffffff, 0xffffffff],
  [0x80000000, 0],
  [0xdeadbeef, 0x01234567],
  [0xffffffff, 0xfffffffe],
  [0xffffffff, 0xffffffff],
];

describe('key codec', () => {
  it('writes big-endian bytes', () => {
    expect([...new Uint8Array(halvesToKey(0x01020304, 0x05060708))]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('round-trips halves and bigints', () => {
    for (const [hi, lo] of samples) {
      expect(keyToHalves(halvesToKey(hi, lo))).toEqual({ hi, lo });
      const f = ((BigInt(hi) << 32n) | BigInt(lo)) as Fingerprint64;
      expect(keyToFingerprint(fingerprintToKey(f))).toBe(f);
      expect(keyToHalves(new Uint8Array(fingerprintToKey(f)))).toEqual({ hi, lo });
    }
  });

  it('makes IndexedDB key order equal numeric order', () => {
    const keys = samples.map(([hi, lo]) => halvesToKey(hi, lo));
    for (let i = 0; i < keys.length; i++) {
      for (let j = 0; j < keys.length; j++) {
        expect(indexedDB.cmp(keys[i]!, keys[j]!)).toBe(Math.sign(i - j));
      }
    }
  });

  it('encodes and decodes in bulk at an offset', () => {
    const hi = Uint32Array.from(samples.map((s) => s[0]));
    const lo = Uint32Array.from(samples.map((s) => s[1]));
    const bytes = halvesToKeyBytes(hi, lo);
    expect(bytes.byteLength).toBe(samples.length * 8);
    const outHi = new Uint32Array(samples.length + 2);
    const outLo = new Uint32Array(samples.length + 2);
    expect(keyBytesToHalves(bytes, outHi, outLo, 2)).toBe(samples.length);
    expect([...outHi.subarray(2)]).toEqual([...hi]);
    expect([...outLo.subarray(2)]).toEqual([...lo]);
    expect(new Uint8Array(bytes, 8 * 6, 8)).toEqual(new Uint8Array(halvesToKey(0xdeadbeef, 0x01234567)));
  });

  it('rejects keys of the wrong length', () => {
    expect(() => keyToHalves(new ArrayBuffer(7))).toThrow(RangeError);
    expect(() => keyBytesToHalves(new ArrayBuffer(12), new Uint32Array(2), new Uint32Array(2))).toThrow(RangeError);
    expect(() => keyBytesToHalves(new ArrayBuffer(16), new Uint32Array(1), new Uint32Array(1))).toThrow(RangeError);
  });
});
