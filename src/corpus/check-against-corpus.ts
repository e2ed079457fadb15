/**
 * Matching one fingerprint against a corpus held in memory: exact copies by content hash and
 * near-duplicate candidates by a linear popcount scan over the corpus's hi/lo halves.
 *
 * Why a linear scan and not the stored permuted tables: a table query reads every entry whose key
 * (m - k whole blocks) matches, so it pays off only when few entries share a key. At the app's
 * k = 12 the index picks m = 13..16 blocks, so a key is 1..4 blocks of 4..5 bits: each of the
 * C(m, k) tables (13..1,820) returns n / 2^(key bits) entries, i.e. at 1M 60,000+ candidates per table
 * (and at k = 10, m = 13: 286 tables, ~3.4 GB stored). A popcount over all 1M fingerprints costs
 * ~5 ms. Rule (tableQueryPays): use the tables only when tableCount * n / 2^keyBits < n / 8; with
 * the default k this never holds, so the check scans linearly. For small k (e.g. k <= 6 at 1M)
 * `planStoredTables` picks m for one-fingerprint queries (few tables, long keys) and the app keeps
 * those tables in IndexedDB; `tableCandidates` turns a stored-table query into the same answer.
 */
import { popcount32 } from '../core/simhash/fingerprint64.ts';
import { binomial, blockLayout, layoutProblem, MAX_BLOCKS } from '../core/index/block-layout.ts';
import { jaccardSorted } from '../core/groups/jaccard.ts';
import { loadDocumentText } from '../core/text/document-text.ts';
import { DocStatus } from '../core/documents/document-status.ts';
import type { IngestBatchResult } from '../workers/ingest-protocol.ts';
import { docBlob, type ScanDocs } from '../scan/scan-result.ts';

/** One checked file: exact copies and verified near-duplicates found in the corpus. */
export interface CheckResult {
  name: string;
  /** Why the file could not be checked (binary, empty, too short), else null. */
  problem: string | null;
  exact: string[];
  near: { path: string; distance: number; jaccard: number | null }[];
  ms: number;
}

/** What checking needs besides the corpus: the pipeline's fingerprinting and feature sets. */
export interface CheckTools {
  /** Fingerprints one file's bytes exactly as the scan does (the ingest worker's ingestBatch). */
  ingest(name: string, bytes: Uint8Array): Promise<IngestBatchResult>;
  /** Sorted feature set of a text, for exact Jaccard. */
  featureSet(text: string): Uint32Array;
  /** Exact-Jaccard threshold a candidate must reach. */
  threshold: number;
  /** At most this many near candidates are verified (closest first). */
  maxCandidates?: number;
  /** Near candidates from the stored permuted tables; the linear scan over `docs` when absent. */
  near?(qHi: number, qLo: number, k: number, limit: number): Promise<NearCandidates>;
}

/**
 * Matches one file against the corpus without adding it: exact copies by content hash, near
 * candidates by a linear popcount scan, each verified by the exact Jaccard of the two texts (read
 * from the corpus's Files, i.e. the stored Blobs; unverifiable when the contents were not kept).
 */
export async function checkFile(docs: ScanDocs, k: number, name: string, bytes: Uint8Array, tools: CheckTools): Promise<CheckResult> {
  const t0 = performance.now();
  const r = await tools.ingest(name, bytes);
  const check: CheckResult = { name, problem: null, exact: [], near: [], ms: 0 };
  const status = r.status[0];
  const qHashHi = r.hashHi[0]!;
  const qHashLo = r.hashLo[0]!;
  const valid = (p: number) => docs.status[p] === DocStatus.ok || docs.status[p] === DocStatus.tooShort;
  for (const p of exactMatches(docs.hashHi, docs.hashLo, qHashHi, qHashLo, valid)) check.exact.push(docs.paths[p]!);
  if (status === DocStatus.ok) {
    const limit = tools.maxCandidates ?? 16;
    const cands = tools.near
      ? await tools.near(r.hi[0]!, r.lo[0]!, k, limit)
      : nearCandidates(docs.hi, docs.lo, docs.status, DocStatus.ok, r.hi[0]!, r.lo[0]!, k, limit);
    // The scan's own rule (documents extracted, text decoded, markup stripped from HTML), so the check measures what the scan does.
    const decoded = await loadDocumentText(bytes, name);
    const mine = decoded.ok ? tools.featureSet(decoded.text) : null;
    for (let i = 0; i < cands.count; i++) {
      const p = cands.ids[i]!;
      if (docs.hashHi[p] === qHashHi && docs.hashLo[p] === qHashLo) continue; // already an exact copy
      let jaccard: number | null = null;
      const stored = docs.files[p] ? await docBlob(docs, p).catch(() => null) : null;
      if (mine && stored && stored.size > 0) {
        const other = await loadDocumentText(new Uint8Array(await stored.arrayBuffer()), docs.paths[p]!);
        if (other.ok) jaccard = jaccardSorted(mine, tools.featureSet(other.text));
      }
      // Verified like the pipeline: a candidate counts when its exact Jaccard clears the threshold.
      if (jaccard !== null && jaccard < tools.threshold) continue;
      check.near.push({ path: docs.paths[p]!, distance: cands.distance[i]!, jaccard });
    }
  } else if (status !== DocStatus.tooShort || check.exact.length === 0) {
    check.problem = r.skipped[0]?.message ?? 'Too short to compare by fingerprint.';
  }
  check.ms = performance.now() - t0;
  return check;
}

/** Near candidates found for one fingerprint, closest first. */
export interface NearCandidates {
  ids: Uint32Array;
  distance: Uint8Array;
  count: number;
}

/**
 * Positions p (status[p] === okCode) with hamming((hi[p], lo[p]), (qHi, qLo)) <= k, closest first,
 * at most `limit`. One pass, no allocation per document.
 */
export function nearCandidates(
  hi: Uint32Array,
  lo: Uint32Array,
  status: Uint8Array,
  okCode: number,
  qHi: number,
  qLo: number,
  k: number,
  limit = 64,
): NearCandidates {
  const found: number[] = [];
  const dist: number[] = [];
  const n = hi.length;
  for (let p = 0; p < n; p++) {
    const d = popcount32((hi[p]! ^ qHi) >>> 0) + popcount32((lo[p]! ^ qLo) >>> 0);
    if (d <= k && status[p] === okCode) {
      found.push(p);
      dist.push(d);
    }
  }
  const order = found.map((_, i) => i).sort((a, b) => dist[a]! - dist[b]! || found[a]! - found[b]!);
  const count = Math.min(limit, order.length);
  const ids = new Uint32Array(count);
  const distance = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    ids[i] = found[order[i]!]!;
    distance[i] = dist[order[i]!]!;
  }
  return { ids, distance, count };
}

/** Positions whose content hash equals (qHi, qLo); `mask` says where a hash is valid. */
export function exactMatches(hashHi: Uint32Array, hashLo: Uint32Array, qHi: number, qLo: number, valid: (p: number) => boolean): number[] {
  const out: number[] = [];
  if (qHi === 0 && qLo === 0) return out;
  for (let p = 0; p < hashHi.length; p++) {
    if (hashHi[p] === qHi && hashLo[p] === qLo && valid(p)) out.push(p);
  }
  return out;
}

/** The rule from this file's header: true when querying stored tables beats a linear scan. */
export function tableQueryPays(n: number, tableCount: number, keyBits: number): boolean {
  return tableCount * (n / 2 ** keyBits) < n / 8;
}

/** At most this many tables are stored (each costs 8-12 bytes per document: 1M documents, 16 tables = ~130-190 MB). */
export const MAX_STORED_TABLES = 16;
/**
 * The fixed cost of one shard read, in entries scanned: a query reads one shard record per table
 * (~64k entries, 256-512 KiB, see chooseShardBits), so a few long-keyed tables beat many.
 */
const SHARD_READ_ENTRIES = 4096;

/** The permuted tables kept for one-fingerprint queries: k, m and what the rule measured. */
export interface TablePlan {
  k: number;
  blocks: number;
  tableCount: number;
  /** The shortest key among the tables, in bits. */
  keyBits: number;
}

/**
 * The table layout that answers one-fingerprint queries over n documents within k best, or null
 * when no layout with at most MAX_STORED_TABLES tables passes `tableQueryPays` (then: linear scan).
 * m is chosen for queries (entries read per query plus one shard read per table), not for all-pairs:
 * all-pairs prefers more, shorter-keyed tables; a single query pays per table.
 */
export function planStoredTables(n: number, k: number): TablePlan | null {
  let best: TablePlan | null = null;
  let bestCost = Infinity;
  for (let m = k + 1; m <= MAX_BLOCKS; m++) {
    if (layoutProblem(k, m) !== null) continue;
    const tableCount = binomial(m, k);
    // C(m, k) grows with m: once over the limit it stays over.
    if (tableCount > MAX_STORED_TABLES) break;
    const layout = blockLayout(k, m);
    let keyBits = 64;
    for (const t of layout.tables) keyBits = Math.min(keyBits, t.bits);
    if (!tableQueryPays(n, tableCount, keyBits)) continue;
    const cost = tableCount * (SHARD_READ_ENTRIES + n / 2 ** keyBits);
    if (cost < bestCost) {
      bestCost = cost;
      best = { k, blocks: m, tableCount, keyBits };
    }
  }
  return best;
}

/**
 * A stored-table query's answer (storage ids and distances) as NearCandidates over positions:
 * `positionOf(id)` maps a storage id to its position (-1 when not in the shown corpus), only positions
 * with status[p] === okCode count, closest first, at most `limit` (the linear scan's order).
 */
export function tableCandidates(
  found: { ids: Uint32Array; distance: Uint8Array },
  positionOf: (id: number) => number,
  status: Uint8Array,
  okCode: number,
  limit: number,
): NearCandidates {
  const pos: number[] = [];
  const dist: number[] = [];
  for (let i = 0; i < found.ids.length; i++) {
    const p = positionOf(found.ids[i]!);
    if (p < 0 || status[p] !== okCode) continue;
    pos.push(p);
    dist.push(found.distance[i]!);
  }
  const order = pos.map((_, i) => i).sort((a, b) => dist[a]! - dist[b]! || pos[a]! - pos[b]!);
  const count = Math.min(limit, order.length);
  const ids = new Uint32Array(count);
  const distance = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    ids[i] = pos[order[i]!]!;
    distance[i] = dist[order[i]!]!;
  }
  return { ids, distance, count };
}
