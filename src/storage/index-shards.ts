/**
 * The bridge between core's PermutedIndex (documents numbered by position) and the stored shards
 * (documents numbered by storage id): save a built index, restore it next to a loaded corpus, compute
 * a batch's table entries for addBatch, and query the stored tables reading only the shards hit.
 */
import { hamming } from '../core/simhash/fingerprint64.ts';
import { blockLayout, extractKey, extractKeys } from '../core/index/block-layout.ts';
import type { PermutedIndex, PermutedTable } from '../core/index/permuted-index.ts';
import type { LoadedCorpus } from './corpus-repository.ts';
import { getDocuments } from './corpus-reads.ts';
import { chooseShardBits, readShardsForKeys, readTableSet, writeTableSet } from './permuted-shards.ts';
import type { TableEntries } from './shard-runs.ts';
import { StorageError } from './storage-error.ts';
import { indexOfSorted } from './key-codec.ts';

/** The index parameters kept with the stored table set. */
interface IndexParams {
  k: number;
  blocks: number;
}

/**
 * Saves a whole index as the stored table set (replacing any). `ids[p]` is the storage id of the
 * document at position p, in any order (LoadedCorpus.ids ascend; the app's tables follow path order);
 * omit it when positions are the storage ids.
 */
export async function writePermutedIndex(
  index: PermutedIndex,
  options: { ids?: Uint32Array; shardBits?: number } = {},
): Promise<void> {
  const keyWords = index.tables.some((t) => t.keyLo.length > 0) ? 2 : 1;
  const largest = index.tables.reduce((n, t) => Math.max(n, t.docs.length), 0);
  const ids = options.ids && !isIdentity(options.ids) ? options.ids : null;
  const tables: TableEntries[] = index.tables.map((t, table) => ({
    table,
    hi: t.keyHi,
    lo: keyWords === 2 ? (t.keyLo.length > 0 ? t.keyLo : new Uint32Array(t.keyHi.length)) : null,
    ids: ids ? t.docs.map((p) => ids[p]!) : t.docs,
  }));
  const params: IndexParams = { k: index.k, blocks: index.blocks };
  await writeTableSet(
    { tableCount: index.tables.length, keyWords, shardBits: options.shardBits ?? chooseShardBits(largest), params: { ...params } },
    tables,
  );
}

/**
 * Restores the stored tables as a PermutedIndex over a loaded corpus (positions = corpus order), or
 * null when no table set is stored. Throws StorageError 'corrupt' when the tables do not fit the corpus.
 */
export async function readPermutedIndex(corpus: LoadedCorpus): Promise<PermutedIndex | null> {
  const stored = await readTableSet();
  if (!stored) return null;
  const params = stored.layout.params as Partial<IndexParams>;
  if (!Number.isInteger(params.k) || !Number.isInteger(params.blocks)) {
    throw new StorageError('corrupt', 'table set without index parameters');
  }
  const k = params.k!;
  const blocks = params.blocks!;
  const layout = blockLayout(k, blocks);
  if (layout.tables.length !== stored.layout.tableCount) {
    throw new StorageError('corrupt', `k=${k}, blocks=${blocks} needs ${layout.tables.length} tables`);
  }
  const positionOf = isIdentity(corpus.ids) ? null : positionMap(corpus);
  const tables: PermutedTable[] = stored.tables.map((t, i) => {
    const docs = positionOf ? new Uint32Array(t.ids.length) : t.ids;
    for (let e = 0; e < t.ids.length; e++) {
      const id = t.ids[e]!;
      const p = positionOf ? positionOf[id] : id < corpus.count ? id : -1;
      if (p === undefined || p < 0) throw new StorageError('corrupt', `table ${i} refers to unknown document ${id}`);
      if (positionOf) docs[e] = p;
    }
    const wide = layout.tables[i]!.bits > 32;
    return { keyHi: t.hi, keyLo: wide ? (t.lo ?? new Uint32Array(t.hi.length)) : new Uint32Array(0), docs };
  });
  return { k, blocks, count: corpus.count, hi: corpus.hi, lo: corpus.lo, tables };
}

/**
 * The permuted-table entries of new documents (fingerprints hi/lo, storage ids), to pass to addBatch
 * as `tableEntries` so they are merged into the stored shards in the batch's transaction.
 */
export function permutedEntries(
  params: IndexParams,
  hi: Uint32Array,
  lo: Uint32Array,
  ids: Uint32Array,
): TableEntries[] {
  const layout = blockLayout(params.k, params.blocks);
  const wide = layout.tables.some((t) => t.bits > 32);
  const n = ids.length;
  return layout.tables.map((spec, table) => {
    const keyHi = new Uint32Array(n);
    const keyLo = wide ? new Uint32Array(n) : null;
    extractKeys(spec, hi, lo, n, keyHi, keyLo);
    return { table, hi: keyHi, lo: keyLo, ids };
  });
}

/** Fingerprints by storage id, for checking candidates without reading documents. */
export interface FingerprintsById {
  /** Ascending storage ids; hi/lo parallel (LoadedCorpus fits). */
  ids: Uint32Array;
  hi: Uint32Array;
  lo: Uint32Array;
}

/**
 * Stored documents within distance k of one fingerprint, reading only the shards its keys fall in (the
 * tables need not be restored). Candidates are checked against `corpus` (e.g. the LoadedCorpus) or,
 * without it, against their stored chunks. Sorted by storage id.
 */
export async function queryStoredTables(
  params: IndexParams,
  hi: number,
  lo: number,
  options: { k?: number; corpus?: FingerprintsById } = {},
): Promise<{ ids: Uint32Array; distance: Uint8Array }> {
  const k = options.k ?? params.k;
  const layout = blockLayout(params.k, params.blocks);
  const keys = layout.tables.map((spec) => {
    const out = new Uint32Array(2);
    extractKey(spec, hi >>> 0, lo >>> 0, out);
    return out;
  });
  const slices = await readShardsForKeys(keys.map((key, table) => ({ table, hi: key[0]! })));
  const candidates = new Set<number>();
  for (const slice of slices) {
    const [kh, kl] = keys[slice.table]!;
    const wide = layout.tables[slice.table]!.bits > 32;
    // Binary search for the first entry with the query's key, then walk the run of equal keys.
    let a = 0;
    let b = slice.hi.length;
    while (a < b) {
      const mid = (a + b) >>> 1;
      const h = slice.hi[mid]!;
      if (h < kh! || (wide && h === kh && slice.lo![mid]! < kl!)) a = mid + 1;
      else b = mid;
    }
    for (let p = a; p < slice.hi.length; p++) {
      if (slice.hi[p] !== kh || (wide && slice.lo![p] !== kl)) break;
      candidates.add(slice.ids[p]!);
    }
  }
  const ids = [...candidates].sort((x, y) => x - y);
  const fingerprints = options.corpus
    ? ids.map((id) => {
        const p = indexOfSorted(options.corpus!.ids, id);
        return p < 0 ? null : { hi: options.corpus!.hi[p]!, lo: options.corpus!.lo[p]! };
      })
    : (await getDocuments(ids)).map((d) => (d && d.status === 'ok' ? { hi: d.hi, lo: d.lo } : null));
  const outIds: number[] = [];
  const outDistance: number[] = [];
  fingerprints.forEach((f, i) => {
    if (!f) return;
    const d = hamming(hi >>> 0, lo >>> 0, f.hi, f.lo);
    if (d <= k) {
      outIds.push(ids[i]!);
      outDistance.push(d);
    }
  });
  return { ids: Uint32Array.from(outIds), distance: Uint8Array.from(outDistance) };
}

function isIdentity(ids: Uint32Array): boolean {
  // Checked in full, not from the ends: the app writes tables over documents in path order, whose
  // storage ids follow the order batches arrived in (0, 1, 5, 2, 3, 4, ... 29 starts at 0 and ends at
  // n - 1 without being the identity; taking it for one stored positions as ids).
  for (let i = 0; i < ids.length; i++) if (ids[i] !== i) return false;
  return true;
}

function positionMap(corpus: LoadedCorpus): Int32Array {
  const map = new Int32Array(corpus.nextId).fill(-1);
  for (let p = 0; p < corpus.count; p++) map[corpus.ids[p]!] = p;
  return map;
}
