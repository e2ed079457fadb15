import { describe, expect, it } from 'vitest';
import { buildIndex, mergeIndex, queryIndex } from '../../../src/core/index/permuted-index.ts';
import { addBatch, loadCorpus, removeDocuments } from '../../../src/storage/corpus-repository.ts';
import type { NewDocument } from '../../../src/storage/corpus-repository.ts';
import { getCorpusDb } from '../../../src/storage/database.ts';
import {
  permutedEntries,
  queryStoredTables,
  readPermutedIndex,
  writePermutedIndex,
} from '../../../src/storage/index-shards.ts';
import {
  chooseShardBits,
  mergeIntoShards,
  readShardsForKeys,
  readTableLayout,
  readTableSet,
  writeTableSet,
} from '../../../src/storage/permuted-shards.ts';
import { shardOf } from '../../../src/storage/shard-runs.ts';
import type { TableEntries } from '../../../src/storage/shard-runs.ts';
import { useFreshDatabase } from './storage-test-db.ts';

useFreshDatabase();

/** Deterministic pseudo-random uint32s (xorshift32). */
function randomWords(n: number, seed: number): Uint32Array {
  const out = new Uint32Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x;
  }
  return out;
}

/** Sorted (hi, lo, id) triples of a table, as strings for easy comparison. */
function triples(t: { hi: Uint32Array; lo?: Uint32Array | null; ids: Uint32Array }): string[] {
  return Array.from(t.ids, (id, i) => `${t.hi[i]}:${t.lo ? t.lo[i] : '-'}:${id}`);
}

function sortedTriples(t: TableEntries): string[] {
  const order = Array.from(t.ids, (_, i) => i).sort(
    (a, b) => t.hi[a]! - t.hi[b]! || (t.lo ? t.lo[a]! - t.lo[b]! : 0) || t.ids[a]! - t.ids[b]!,
  );
  return order.map((i) => `${t.hi[i]}:${t.lo ? t.lo[i] : '-'}:${t.ids[i]}`);
}

function table(table: number, n: number, seed: number, firstId = 0, twoWords = true): TableEntries {
  return {
    table,
    hi: randomWords(n, seed),
    lo: twoWords ? randomWords(n, seed + 1000) : null,
    ids: Uint32Array.from({ length: n }, (_, i) => firstId + i),
  };
}

describe('shard layout', () => {
  it('cuts by leading bits', () => {
    expect(shardOf(0xffffffff, 0)).toBe(0);
    expect(shardOf(0xffffffff, 8)).toBe(255);
    expect(shardOf(0x01ffffff, 8)).toBe(1);
    expect(shardOf(0x80000000, 1)).toBe(1);
    expect(chooseShardBits(1000)).toBe(0);
    expect(chooseShardBits(65536)).toBe(0);
    expect(chooseShardBits(1_000_000)).toBe(4);
    expect(chooseShardBits(1_000_000, 4096)).toBe(8);
    expect(chooseShardBits(1e12)).toBe(16);
  });
});

describe('table sets', () => {
  it('writes unsorted tables and reads them back sorted, shard by shard', async () => {
    const tables = [table(0, 3000, 1), table(1, 2500, 2)];
    await writeTableSet({ tableCount: 2, keyWords: 2, shardBits: 4, params: { k: 3 } }, tables);
    const stored = await readTableSet();
    expect(stored!.layout).toEqual({ tableCount: 2, keyWords: 2, shardBits: 4, params: { k: 3 }, tombstoneCount: 0 });
    expect(triples(stored!.tables[0]!)).toEqual(sortedTriples(tables[0]!));
    expect(triples(stored!.tables[1]!)).toEqual(sortedTriples(tables[1]!));
    const db = await getCorpusDb();
    const records = await db.getAll('shards');
    expect(records.length).toBe(32);
    for (const r of records) {
      const hi = new Uint32Array(r.hi);
      expect(hi.length).toBe(r.count);
      expect(hi.every((h) => shardOf(h, 4) === r.shard)).toBe(true);
    }
  });

  it('reads only the shards the query keys hit', async () => {
    const tables = [table(0, 4000, 3, 0, false), table(1, 4000, 4, 0, false)];
    await writeTableSet({ tableCount: 2, keyWords: 1, shardBits: 6 }, tables);
    const probe = tables[1]!.hi[17]!;
    const slices = await readShardsForKeys([
      { table: 1, hi: probe },
      { table: 1, hi: probe },
      { table: 0, hi: 0 },
    ]);
    expect(slices.map((s) => `${s.table}/${s.shard}`).sort()).toEqual([`0/0`, `1/${shardOf(probe, 6)}`].sort());
    const hit = slices.find((s) => s.table === 1)!;
    expect(hit.lo).toBeNull();
    expect([...hit.hi].every((h) => shardOf(h, 6) === shardOf(probe, 6))).toBe(true);
    expect(hit.ids.includes(17)).toBe(true);
    const expected = sortedTriples(tables[1]!).filter((t) => shardOf(Number(t.split(':')[0]), 6) === hit.shard);
    expect(triples(hit)).toEqual(expected);
  });

  it('merges new entries into shards, still sorted, equal to writing everything at once', async () => {
    const base = [table(0, 2000, 5), table(1, 2000, 6)];
    const extra = [table(0, 300, 7, 2000), table(1, 300, 8, 2000)];
    await writeTableSet({ tableCount: 2, keyWords: 2, shardBits: 5 }, base);
    await mergeIntoShards(extra);
    const merged = await readTableSet();
    for (const t of [0, 1]) {
      const all: TableEntries = {
        table: t,
        hi: Uint32Array.from([...base[t]!.hi, ...extra[t]!.hi]),
        lo: Uint32Array.from([...base[t]!.lo!, ...extra[t]!.lo!]),
        ids: Uint32Array.from([...base[t]!.ids, ...extra[t]!.ids]),
      };
      expect(triples(merged!.tables[t]!)).toEqual(sortedTriples(all));
    }
  });

  it('refuses to merge without a table set and rejects a bad table number', async () => {
    await expect(mergeIntoShards([table(0, 3, 9)])).rejects.toMatchObject({ kind: 'invalid-input' });
    await writeTableSet({ tableCount: 1, keyWords: 2, shardBits: 2 }, [table(0, 10, 10)]);
    await expect(mergeIntoShards([table(3, 3, 9)])).rejects.toMatchObject({ kind: 'invalid-input' });
    expect(triples((await readTableSet())!.tables[0]!)).toEqual(sortedTriples(table(0, 10, 10)));
  });

  it('reports a damaged shard as corrupt', async () => {
    await writeTableSet({ tableCount: 1, keyWords: 1, shardBits: 0 }, [table(0, 10, 11, 0, false)]);
    const db = await getCorpusDb();
    const shard = (await db.get('shards', [0, 0]))!;
    await db.put('shards', { ...shard, ids: new ArrayBuffer(4) });
    await expect(readTableSet()).rejects.toMatchObject({ kind: 'corrupt' });
  });
});

/** Documents for fingerprints hi/lo with ids from `first`. */
function documentsFor(hi: Uint32Array, lo: Uint32Array, first: number): NewDocument[] {
  return Array.from(hi, (h, i) => ({
    id: first + i,
    path: `f/${first + i}.txt`,
    size: 1,
    lastModified: 0,
    contentHash: null,
    status: 'ok' as const,
    hi: h,
    lo: lo[i]!,
    words: 10,
    features: 8,
  }));
}

/** Fingerprints with planted near-duplicates: every 10th is a 2-bit flip of the one before. */
function fingerprints(n: number, seed: number): { hi: Uint32Array; lo: Uint32Array } {
  const hi = randomWords(n, seed);
  const lo = randomWords(n, seed + 7);
  for (let i = 1; i < n; i += 10) {
    hi[i] = hi[i - 1]! ^ (1 << (i % 32));
    lo[i] = lo[i - 1]! ^ (1 << ((i * 7) % 32));
  }
  return { hi, lo };
}

describe('the permuted index through storage', () => {
  it('restores a written index equal to the built one, answering the same queries', async () => {
    const { hi, lo } = fingerprints(3000, 21);
    await addBatch({ documents: documentsFor(hi, lo, 0) });
    const index = buildIndex(hi, lo, 3);
    await writePermutedIndex(index, { shardBits: 3 });
    const restored = await readPermutedIndex(await loadCorpus());
    expect(restored).not.toBeNull();
    expect(restored!.tables.length).toBe(index.tables.length);
    restored!.tables.forEach((t, i) => {
      expect([...t.keyHi]).toEqual([...index.tables[i]!.keyHi]);
      expect([...t.keyLo]).toEqual([...index.tables[i]!.keyLo]);
      expect([...t.docs]).toEqual([...index.tables[i]!.docs]);
    });
    for (const q of [0, 1, 11, 2999]) {
      expect(queryIndex(restored!, hi[q]!, lo[q]!)).toEqual(queryIndex(index, hi[q]!, lo[q]!));
    }
  });

  it('merges a batch added later the same way mergeIndex does, in the batch transaction', async () => {
    const first = fingerprints(2000, 31);
    const later = fingerprints(400, 41);
    await addBatch({ documents: documentsFor(first.hi, first.lo, 0) });
    const index = buildIndex(first.hi, first.lo, 3);
    await writePermutedIndex(index, { shardBits: 4 });
    const ids = Uint32Array.from({ length: 400 }, (_, i) => 2000 + i);
    const params = { k: index.k, blocks: index.blocks };
    await addBatch({
      documents: documentsFor(later.hi, later.lo, 2000),
      tableEntries: permutedEntries(params, later.hi, later.lo, ids),
    });
    const expected = mergeIndex(index, later.hi, later.lo);
    const restored = (await readPermutedIndex(await loadCorpus()))!;
    restored.tables.forEach((t, i) => {
      expect([...t.docs]).toEqual([...expected.tables[i]!.docs]);
      expect([...t.keyHi]).toEqual([...expected.tables[i]!.keyHi]);
    });
    expect(queryIndex(restored, later.hi[5]!, later.lo[5]!)).toEqual(queryIndex(expected, later.hi[5]!, later.lo[5]!));
  });

  it('answers a query from the shards alone, like the in-memory index', async () => {
    const { hi, lo } = fingerprints(3000, 51);
    await addBatch({ documents: documentsFor(hi, lo, 0) });
    const index = buildIndex(hi, lo, 3);
    await writePermutedIndex(index, { shardBits: 4 });
    const corpus = await loadCorpus();
    for (const q of [0, 1, 20, 21, 1234]) {
      // A query near document q: flip one more bit.
      const qh = (hi[q]! ^ 0x10) >>> 0;
      const expected = queryIndex(index, qh, lo[q]!);
      const got = await queryStoredTables({ k: index.k, blocks: index.blocks }, qh, lo[q]!);
      expect([...got.ids]).toEqual([...expected.docs]);
      expect([...got.distance]).toEqual([...expected.distance]);
      expect(got.ids.includes(q)).toBe(true);
      // Checking candidates against the loaded corpus gives the same answer without reading chunks.
      const withCorpus = await queryStoredTables({ k: index.k, blocks: index.blocks }, qh, lo[q]!, { corpus });
      expect(withCorpus).toEqual(got);
    }
  });

  it('stores the ids given, in any order, also when they start at 0 and end at n - 1', async () => {
    // The app's case: documents in path order, storage ids in the order their batches arrived.
    const { hi, lo } = fingerprints(30, 71);
    await addBatch({ documents: documentsFor(hi, lo, 0) });
    const order = [0, 1, 5, 2, 3, 4, ...Array.from({ length: 24 }, (_, i) => i + 6)];
    const ids = Uint32Array.from(order);
    const index = buildIndex(Uint32Array.from(order, (id) => hi[id]!), Uint32Array.from(order, (id) => lo[id]!), 8);
    await writePermutedIndex(index, { ids });
    const corpus = await loadCorpus();
    for (const id of [0, 2, 5, 29]) {
      const got = await queryStoredTables({ k: index.k, blocks: index.blocks }, hi[id]!, lo[id]!, { corpus });
      expect([...got.ids]).toContain(id);
      expect(got.distance[[...got.ids].indexOf(id)]).toBe(0);
    }
  });

  it('drops removed documents from restored tables and shard reads (tombstones), remapping positions', async () => {
    const { hi, lo } = fingerprints(1000, 61);
    await addBatch({ documents: documentsFor(hi, lo, 0) });
    const index = buildIndex(hi, lo, 3);
    await writePermutedIndex(index, { shardBits: 2 });
    await removeDocuments([0, 500]);
    expect((await readTableLayout())!.tombstoneCount).toBe(2);
    const corpus = await loadCorpus();
    const restored = (await readPermutedIndex(corpus))!;
    for (const t of restored.tables) expect(t.docs.length).toBe(998);
    // Position 0 now holds storage id 1; the near-duplicate pair (0, 1) lost its first member.
    const r = queryIndex(restored, hi[1]!, lo[1]!);
    expect([...r.docs].map((p) => corpus.ids[p])).toEqual(
      [...queryIndex(index, hi[1]!, lo[1]!).docs].filter((id) => id !== 0 && id !== 500),
    );
    const stored = await queryStoredTables({ k: 3, blocks: index.blocks }, hi[0]!, lo[0]!);
    expect(stored.ids.includes(0)).toBe(false);
    expect(stored.ids.includes(1)).toBe(true);
    // Rewriting the set from the remaining documents clears the tombstones.
    await writePermutedIndex(buildIndex(corpus.hi, corpus.lo, 3), { ids: corpus.ids });
    expect((await readTableLayout())!.tombstoneCount).toBe(0);
    const rebuilt = (await readPermutedIndex(await loadCorpus()))!;
    expect(queryIndex(rebuilt, hi[1]!, lo[1]!)).toEqual(r);
  });
});
