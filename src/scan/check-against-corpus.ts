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
 * the default k this never holds, so the check always scans linearly.
 */
import { popcount32 } from '../core/simhash/fingerprint64.ts';

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
