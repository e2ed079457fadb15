/**
 * The page side of `npm run bench -- restore`: bundled with esbuild and loaded in headless Chromium,
 * it fills the real IndexedDB with a generated corpus (setup) and times the restore after a browser
 * restart (restore). Exposed on `window.simsiftRestoreBench`.
 */
import { buildIndex, queryIndex } from '../src/core/index/permuted-index.ts';
import { hamming } from '../src/core/simhash/fingerprint64.ts';
import { addBatch, loadCorpus } from '../src/storage/corpus-repository.ts';
import type { NewDocument } from '../src/storage/corpus-repository.ts';
import { closeCorpusDb, deleteCorpusDatabase, getCorpusDb } from '../src/storage/database.ts';
import { queryStoredTables, readPermutedIndex, writePermutedIndex } from '../src/storage/index-shards.ts';
import { readTableLayout } from '../src/storage/permuted-shards.ts';
import { getStorageUsage } from '../src/storage/storage-quota.ts';

/** Deterministic fingerprints (xorshift32), every 50th a near-duplicate of the one before. */
function generate(n: number): { hi: Uint32Array; lo: Uint32Array } {
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  let x = 0x9e3779b9;
  const next = (): number => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>>= 0);
  };
  for (let i = 0; i < n; i++) {
    hi[i] = next();
    lo[i] = next();
    if (i % 50 === 1) {
      hi[i] = hi[i - 1]! ^ 0x00010000;
      lo[i] = lo[i - 1]! ^ 0x00000101;
    }
  }
  return { hi, lo };
}

/** Rewrites the stored tables from the stored corpus with the given shard bits (-1: automatic). */
async function rewriteTables(k: number, shardBits: number): Promise<Record<string, number>> {
  const t0 = performance.now();
  const corpus = await loadCorpus();
  const index = buildIndex(corpus.hi, corpus.lo, k);
  await writePermutedIndex(index, shardBits >= 0 ? { shardBits } : {});
  closeCorpusDb();
  return { tables: index.tables.length, shardBits, rewriteMs: performance.now() - t0 };
}

async function setup(n: number, k: number, batchSize: number, withTables: boolean): Promise<Record<string, number>> {
  await deleteCorpusDatabase();
  await getCorpusDb();
  const { hi, lo } = generate(n);
  const t0 = performance.now();
  for (let from = 0; from < n; from += batchSize) {
    const docs: NewDocument[] = [];
    for (let i = from; i < Math.min(n, from + batchSize); i++) {
      docs.push({
        id: i,
        // ~65 characters, nested like a real archive (paths are the biggest part of a chunk).
        path: `archive/2024/project-${i >>> 14}/folder-${(i >>> 8) & 63}/notes-${(i >>> 4) & 15}/document-${i}.txt`,
        size: 2000 + (i % 5000),
        lastModified: 1_700_000_000_000 + i,
        contentHash: ((hi[i]! ^ 0x5bd1e995) >>> 0).toString(16).padStart(8, '0') + lo[i]!.toString(16).padStart(8, '0'),
        status: 'ok',
        hi: hi[i]!,
        lo: lo[i]!,
        words: 300,
        features: 298,
      });
    }
    await addBatch({ documents: docs });
  }
  const t1 = performance.now();
  let tables = 0;
  let tableBytes = 0;
  let blocks = 0;
  if (withTables) {
    const index = buildIndex(hi, lo, k);
    blocks = index.blocks;
    tables = index.tables.length;
    for (const t of index.tables) tableBytes += t.keyHi.byteLength + t.keyLo.byteLength + t.docs.byteLength;
    await writePermutedIndex(index);
  }
  const t2 = performance.now();
  const usage = await getStorageUsage();
  closeCorpusDb();
  return {
    documents: n,
    writeDocumentsMs: t1 - t0,
    buildAndWriteTablesMs: t2 - t1,
    blocks,
    tables,
    tableBytes,
    usageBytes: usage?.usage ?? -1,
  };
}

async function restore(): Promise<Record<string, number>> {
  const t0 = performance.now();
  await getCorpusDb();
  const t1 = performance.now();
  const corpus = await loadCorpus();
  const t2 = performance.now();
  const index = await readPermutedIndex(corpus);
  const t3 = performance.now();
  // Ready to query: one query through the restored index (or a linear scan without tables).
  const q = 1;
  let found = 0;
  let queryMs = 0;
  if (index) {
    const s = performance.now();
    const result = queryIndex(index, corpus.hi[q]!, corpus.lo[q]!);
    queryMs = performance.now() - s;
    found = result.docs.length;
  } else {
    const s = performance.now();
    for (let i = 0; i < corpus.count; i++) if (hamming(corpus.hi[q]!, corpus.lo[q]!, corpus.hi[i]!, corpus.lo[i]!) <= 3) found++;
    queryMs = performance.now() - s;
  }
  const t4 = performance.now();
  // Alternative: rebuild the tables in memory from hi/lo instead of reading them.
  let rebuildMs = -1;
  if (index) {
    const s = performance.now();
    buildIndex(corpus.hi, corpus.lo, index.k, { blocks: index.blocks });
    rebuildMs = performance.now() - s;
  }
  closeCorpusDb();
  return {
    documents: corpus.count,
    openMs: t1 - t0,
    loadCorpusMs: t2 - t1,
    readTablesMs: t3 - t2,
    firstQueryMs: queryMs,
    totalMs: t4 - t0,
    queryHits: found,
    tables: index?.tables.length ?? 0,
    rebuildTablesInsteadMs: rebuildMs,
  };
}

/**
 * "Check one file against the corpus" without restoring the tables: open and load the corpus columns
 * (hi/lo), then query the stored tables for a few fingerprints (reads only the shards their keys hit).
 * Also without the loaded corpus (candidates checked against their stored chunks).
 */
async function queryStored(queries: number): Promise<Record<string, number>> {
  const t0 = performance.now();
  const layout = await readTableLayout();
  if (!layout) return { queries: 0 };
  const params = layout.params as { k: number; blocks: number };
  const corpus = await loadCorpus();
  const t1 = performance.now();
  const { hi, lo } = generate(Math.max(queries * 1000, 2));
  const run = async (withCorpus: boolean): Promise<{ first: number; median: number; max: number; hits: number }> => {
    const times: number[] = [];
    let hits = 0;
    for (let q = 0; q < queries; q++) {
      const i = q * 1000 + 1 + (withCorpus ? 0 : 500); // a stored document with a planted near-duplicate
      const s = performance.now();
      const result = await queryStoredTables(params, hi[i]! ^ 0x4, lo[i]!, withCorpus ? { corpus } : {});
      times.push(performance.now() - s);
      hits += result.ids.length;
    }
    const first = times[0] ?? 0;
    times.sort((a, b) => a - b);
    return { first, median: times[Math.floor(times.length / 2)] ?? 0, max: times[times.length - 1] ?? 0, hits };
  };
  const a = await run(true);
  const b = await run(false);
  closeCorpusDb();
  return {
    queries,
    openAndLoadCorpusMs: t1 - t0,
    firstQueryMs: a.first,
    medianQueryMs: a.median,
    maxQueryMs: a.max,
    hits: a.hits,
    withoutCorpusMedianMs: b.median,
    withoutCorpusMaxMs: b.max,
  };
}

(window as unknown as { simsiftRestoreBench: unknown }).simsiftRestoreBench = { setup, restore, rewriteTables, queryStored };
