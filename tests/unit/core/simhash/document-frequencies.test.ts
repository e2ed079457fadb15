import { describe, expect, it } from 'vitest';
import {
  createDocumentFrequencyCounter,
  createDocumentFrequencyTable,
  inverseDocumentFrequency,
  mergeDocumentFrequencies,
} from '../../../../src/core/simhash/document-frequencies.ts';

describe('document frequencies', () => {
  it('counts in how many documents each key occurs', () => {
    const c = createDocumentFrequencyCounter();
    c.add(Uint32Array.of(5, 1, 0xffffffff));
    c.add(Uint32Array.of(1, 7));
    c.add(Uint32Array.of());
    const df = c.result();
    expect(df.documents).toBe(3);
    expect([...df.keys]).toEqual([1, 5, 7, 0xffffffff]);
    expect([...df.counts]).toEqual([2, 1, 1, 1]);
  });

  it('grows past its initial table and keeps every count', () => {
    const c = createDocumentFrequencyCounter();
    const keys = Uint32Array.from({ length: 20000 }, (_, i) => Math.imul(i + 1, 0x9e3779b1) >>> 0);
    c.add(keys);
    c.add(keys.subarray(0, 5000));
    const df = c.result();
    expect(df.keys.length).toBe(20000);
    const table = createDocumentFrequencyTable(df);
    expect(table.get(keys[0])).toBe(2);
    expect(table.get(keys[4999])).toBe(2);
    expect(table.get(keys[5000])).toBe(1);
    expect(table.get(12345)).toBe(keys.includes(12345) ? 1 : 0);
  });

  it('merges counts from several workers', () => {
    const a = createDocumentFrequencyCounter();
    a.add(Uint32Array.of(1, 2));
    const b = createDocumentFrequencyCounter();
    b.add(Uint32Array.of(2, 3));
    b.add(Uint32Array.of(3));
    const m = mergeDocumentFrequencies([a.result(), b.result()]);
    expect(m.documents).toBe(3);
    expect([...m.keys]).toEqual([1, 2, 3]);
    expect([...m.counts]).toEqual([1, 2, 2]);
    expect(mergeDocumentFrequencies([]).documents).toBe(0);
  });

  it('uses the smoothed idf ln((1+N)/(1+df)) + 1', () => {
    expect(inverseDocumentFrequency(9, 9)).toBeCloseTo(1);
    expect(inverseDocumentFrequency(9, 0)).toBeCloseTo(Math.log(10) + 1);
  });
});
