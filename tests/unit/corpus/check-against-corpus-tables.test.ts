// Stored-table queries (written whole, then merged per batch, with a removal) against the linear scan and brute force.
import { describe, expect, it } from 'vitest';
import { nearCandidates, planStoredTables, tableCandidates } from '../../../src/corpus/check-against-corpus.ts';
import { buildIndex } from '../../../src/core/index/permuted-index.ts';
import { popcount32 } from '../../../src/core/simhash/fingerprint64.ts';
import { addBatch, removeDocuments } from '../../../src/storage/corpus-repository.ts';
import type { NewDocument } from '../../../src/storage/corpus-repository.ts';
import { permutedEntries, queryStoredTables, writePermutedIndex } from '../../../src/storage/index-shards.ts';
import { useFreshDatabase } from '../storage/storage-test-db.ts';

useFreshDatabase();
const OK = 1;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0);
}

function doc(id: number, hi: number, lo: number): NewDocument {
  return { id, path: `d/${id}.txt`, size: 1, lastModified: 0, contentHash: null, status: 'ok', hi, lo, words: 100, features: 100 };
}

describe('planStoredTables', () => {
  it('keeps tables for small k and scans linearly at the default k = 12', () => {
    expect(planStoredTables(1_000_000, 3)).toEqual({ k: 3, blocks: 4, tableCount: 4, keyBits: 16 });
    expect(planStoredTables(1_000_000, 6)?.tableCount).toBe(7);
    expect(planStoredTables(1_000_000, 10)).toBeNull();
    expect(planStoredTables(1_000_000, 12)).toBeNull();
  });
});

describe('stored-table query', () => {
  it('equals the linear scan and brute force, after a whole write, per-batch merges and a removal', async () => {
    const k = 4;
    const plan = planStoredTables(3000, k)!;
    const next = rng(11);
    const n = 3000;
    const hi = new Uint32Array(n);
    const lo = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      if (i > 0 && i % 5 === 0) {
        // A near neighbour of an earlier document: 0..6 flipped bits.
        const j = next() % i;
        hi[i] = hi[j]!;
        lo[i] = lo[j]!;
        for (let f = next() % 7; f > 0; f--) {
          const bit = next() % 64;
          if (bit < 32) hi[i]! ^= 1 << bit;
          else lo[i]! ^= 1 << (bit - 32);
        }
      } else {
        hi[i] = next();
        lo[i] = next();
      }
    }
    // The first 2,000 documents are written as a whole table set, the rest come in batches of 250.
    const first = 2000;
    await addBatch({ documents: Array.from({ length: first }, (_, i) => doc(i, hi[i]!, lo[i]!)) });
    await writePermutedIndex(buildIndex(hi.slice(0, first), lo.slice(0, first), k, { blocks: plan.blocks }));
    for (let from = first; from < n; from += 250) {
      const ids = Uint32Array.from({ length: 250 }, (_, i) => from + i);
      await addBatch({
        documents: [...ids].map((id) => doc(id, hi[id]!, lo[id]!)),
        tableEntries: permutedEntries({ k, blocks: plan.blocks }, hi.slice(from, from + 250), lo.slice(from, from + 250), ids),
      });
    }
    const removed = [5, 10, 2500];
    await removeDocuments(removed);
    const status = new Uint8Array(n).fill(OK);
    for (const id of removed) status[id] = 0;

    let withNeighbours = 0;
    const corpus = { ids: Uint32Array.from({ length: n }, (_, i) => i), hi, lo };
    for (let q = 0; q < 60; q++) {
      const at = next() % n;
      const qHi = (hi[at]! ^ (q % 3 === 0 ? 1 << next() % 32 : 0)) >>> 0;
      const qLo = lo[at]!;
      for (const radius of [0, 2, k]) {
        const stored = await queryStoredTables({ k, blocks: plan.blocks }, qHi, qLo, { k: radius, corpus });
        const viaTables = tableCandidates(stored, (id) => id, status, OK, n);
        const linear = nearCandidates(hi, lo, status, OK, qHi, qLo, radius, n);
        const brute: number[] = [];
        for (let p = 0; p < n; p++) {
          const d = popcount32((hi[p]! ^ qHi) >>> 0) + popcount32((lo[p]! ^ qLo) >>> 0);
          if (d <= radius && status[p] === OK) brute.push(p);
        }
        expect([...viaTables.ids]).toEqual([...linear.ids]);
        expect([...viaTables.distance]).toEqual([...linear.distance]);
        expect([...linear.ids].sort((a, b) => a - b)).toEqual(brute);
        if (brute.length > 1) withNeighbours++;
      }
    }
    // Not a vacuous comparison: many queries had near neighbours besides themselves.
    expect(withNeighbours).toBeGreaterThan(20);
  });
});
