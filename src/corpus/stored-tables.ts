/**
 * The stored permuted tables of the saved corpus, kept in step with the corpus on show: their layout
 * read back on restore, a rebuild when the plan changes,
 * and near-candidate queries for "Check files against the corpus". Checks scan linearly without them.
 */
import { queryStoredTables, writePermutedIndex } from '../storage/index-shards.ts';
import { deleteTableSet, readTableLayout } from '../storage/permuted-shards.ts';
import { withWriterLock } from '../storage/tab-coordination.ts';
import { DocStatus } from '../core/documents/document-status.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import { planStoredTables, tableCandidates } from './check-against-corpus.ts';
import type { CheckTools } from './check-against-corpus.ts';
import { LOCK_WAIT_MS } from './corpus-writer.ts';
import { NO_ID } from '../core/ids.ts';
import type { CorpusPart } from './merge-corpus.ts';
import { fingerprintsOf } from './stored-documents.ts';

/** The tables' parameters (null: none stored). */
export type StoredTables = { k: number; blocks: number; tableCount: number } | null;

/** Reads the stored table layout (after a restore or another tab's write). */
export async function loadTables(): Promise<StoredTables> {
  const layout = await readTableLayout();
  const params = layout?.params as { k?: unknown; blocks?: unknown } | undefined;
  return layout && typeof params?.k === 'number' && typeof params.blocks === 'number'
    ? { k: params.k, blocks: params.blocks, tableCount: layout.tableCount }
    : null;
}

/**
 * Keeps the stored tables in step with the shown corpus: written when `planStoredTables` says they
 * pay for its size and k (rebuilt when the plan changed or a batch was committed without entries),
 * deleted when they do not pay (checks then scan linearly). Skipped while another tab writes.
 * Returns the tables now stored.
 */
export async function syncTables(workers: ScanWorkers, shown: CorpusPart, current: StoredTables, incomplete: boolean): Promise<StoredTables> {
  const { docs, k } = shown.result;
  const positions: number[] = [];
  for (let p = 0; p < docs.count; p++) {
    if (shown.storageIds[p] !== NO_ID && docs.status[p] === DocStatus.ok && shown.result.representative[p] === p) positions.push(p);
  }
  const plan = planStoredTables(positions.length, k);
  if (plan && current && !incomplete && current.k === plan.k && current.blocks === plan.blocks) return current;
  if (!plan && !current) return current;
  let tables = current;
  try {
    await withWriterLock(
      async () => {
        if (!plan) {
          await deleteTableSet();
          tables = null;
          return;
        }
        const { hi, lo, ids } = fingerprintsOf(docs, positions, shown.storageIds);
        // Built in the index worker: at 1M documents it is longer than a main-thread task may take.
        const index = await workers.index.call(undefined, (api) => api.buildTables({ hi, lo, k: plan.k, blocks: plan.blocks }));
        await writePermutedIndex(index, { ids });
        tables = { k: plan.k, blocks: plan.blocks, tableCount: plan.tableCount };
      },
      { wait: true, signal: AbortSignal.timeout(LOCK_WAIT_MS) },
    );
  } catch {
    // Only a speed-up for checks: without tables they scan linearly.
  }
  return tables;
}

/**
 * Near candidates from the stored tables for the shown corpus: only the shards the query's keys hit
 * are read; hits are checked against the corpus's fingerprints in memory, then each hit's exact copies
 * (same representative) are added, so the answer equals the linear scan over the shown documents.
 */
export function storedTableSearch(shown: CorpusPart, t: { k: number; blocks: number }): NonNullable<CheckTools['near']> {
  const { docs, representative } = shown.result;
  // Saved positions by ascending storage id (the corpus as FingerprintsById), and copies per representative.
  const order: number[] = [];
  for (let p = 0; p < docs.count; p++) if (shown.storageIds[p] !== NO_ID) order.push(p);
  order.sort((x, y) => shown.storageIds[x]! - shown.storageIds[y]!);
  const ids = Uint32Array.from(order, (p) => shown.storageIds[p]!);
  const byId = { ids, hi: Uint32Array.from(order, (p) => docs.hi[p]!), lo: Uint32Array.from(order, (p) => docs.lo[p]!) };
  const positionOf = (id: number): number => {
    let a = 0;
    let b = ids.length - 1;
    while (a <= b) {
      const mid = (a + b) >>> 1;
      if (ids[mid] === id) return order[mid]!;
      if (ids[mid]! < id) a = mid + 1;
      else b = mid - 1;
    }
    return -1;
  };
  const copies = new Map<number, number[]>();
  for (let p = 0; p < docs.count; p++) {
    const r = representative[p]!;
    if (r < 0 || r === p) continue;
    const list = copies.get(r) ?? [];
    list.push(p);
    copies.set(r, list);
  }
  return async (qHi, qLo, k, limit) => {
    const found = await queryStoredTables({ k: t.k, blocks: t.blocks }, qHi, qLo, { k, corpus: byId });
    const hitIds: number[] = [];
    const hitDistance: number[] = [];
    const seen = new Set<number>();
    const add = (p: number, d: number) => {
      if (seen.has(p) || shown.storageIds[p] === NO_ID) return;
      seen.add(p);
      hitIds.push(shown.storageIds[p]!);
      hitDistance.push(d);
    };
    for (let i = 0; i < found.ids.length; i++) {
      const p = positionOf(found.ids[i]!);
      if (p < 0) continue;
      const r = representative[p]! >= 0 ? representative[p]! : p;
      add(r, found.distance[i]!);
      for (const c of copies.get(r) ?? []) add(c, found.distance[i]!);
      add(p, found.distance[i]!);
    }
    return tableCandidates({ ids: Uint32Array.from(hitIds), distance: Uint8Array.from(hitDistance) }, positionOf, docs.status, DocStatus.ok, limit);
  };
}
