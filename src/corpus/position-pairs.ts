/**
 * Saved verified pairs (by stored id) at restored positions: the pairs a restore or the CLI cache's
 * second scan hands the pipeline as candidates with their Jaccards known.
 */
import type { VerifiedPairs } from '../storage/verified-pairs.ts';
import { StorageError } from '../storage/storage-error.ts';
import type { DocId, StorageIds } from '../core/ids.ts';

/** Saved pairs over restored positions, sorted by (a, b), with exact-verdict Jaccards (see below). */
export interface PositionPairs {
  a: Uint32Array;
  b: Uint32Array;
  distance: Uint8Array;
  jaccard: Float64Array;
  count: number;
}

/**
 * Saved verified pairs over restored positions (`ids` = stored id per position); each member
 * is replaced by `representative[position]` when given (copies share their text). Float32 values are
 * lifted to the threshold they were verified at, so a pair verified exactly at the threshold keeps its
 * verdict when the threshold is unchanged.
 */
export function pairsAtPositions(saved: VerifiedPairs, ids: StorageIds, threshold: number, representative?: Int32Array, strict = false): PositionPairs {
  const same = pairsAsSaved(saved, ids, threshold, representative, strict);
  if (same) return same;
  const positionOf = positionLookup(ids);
  const at = (id: number): number => {
    const p = positionOf(id);
    // Saved pairs are written for the corpus revision they describe: an id it does not hold is damage.
    if (p < 0) {
      if (strict) throw new StorageError('corrupt', `saved pairs name document ${id}, which is not stored`);
      return -1;
    }
    return representative ? representative[p]! : p;
  };
  if (strict) {
    for (let p = 0; p < saved.count; p++) {
      const j = saved.jaccard[p]!;
      // Every saved pair was accepted at the saved threshold (float32 may round it a hair below).
      if (!(j >= saved.threshold - 1e-6 && j <= 1)) {
        throw new StorageError('corrupt', `saved pair ${saved.a[p]}-${saved.b[p]} has a Jaccard of ${j}, below the threshold ${saved.threshold} it was accepted at`);
      }
    }
  }
  // Typed columns and an index sort (rows of arrays cost seconds at 200,000 pairs).
  const ra = new Uint32Array(saved.count);
  const rb = new Uint32Array(saved.count);
  const src = new Uint32Array(saved.count);
  let n = 0;
  for (let p = 0; p < saved.count; p++) {
    const a = at(saved.a[p]!);
    const b = at(saved.b[p]!);
    if (a < 0 || b < 0 || a === b) continue;
    ra[n] = Math.min(a, b);
    rb[n] = Math.max(a, b);
    src[n] = p;
    n++;
  }
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = ra[i - 1]! < ra[i]! || (ra[i - 1] === ra[i] && rb[i - 1]! <= rb[i]!);
  // Saved pairs usually come sorted: then no order array is built (nor iterated) at all.
  const order = sorted ? null : Array.from({ length: n }, (_, i) => i).sort((x, y) => ra[x]! - ra[y]! || rb[x]! - rb[y]! || x - y);
  const out = { a: new Uint32Array(n), b: new Uint32Array(n), distance: new Uint8Array(n), jaccard: new Float64Array(n), count: 0 };
  for (let t = 0; t < n; t++) {
    const i = order ? order[t]! : t;
    const m = out.count;
    if (m > 0 && out.a[m - 1] === ra[i] && out.b[m - 1] === rb[i]) continue;
    const p = src[i]!;
    out.a[m] = ra[i]!;
    out.b[m] = rb[i]!;
    out.distance[m] = saved.distance[p]!;
    out.jaccard[m] = saved.threshold === threshold ? Math.max(saved.jaccard[p]!, threshold) : saved.jaccard[p]!;
    out.count++;
  }
  const c = out.count;
  return { a: out.a.subarray(0, c), b: out.b.subarray(0, c), distance: out.distance.subarray(0, c), jaccard: out.jaccard.subarray(0, c), count: c };
}

/** Position of a stored id (-1 when not held): a table when ids are dense enough, else a map. */
function positionLookup(ids: StorageIds): (id: number) => DocId | -1 {
  let max = 0;
  for (let p = 0; p < ids.length; p++) if (ids[p]! > max) max = ids[p]!;
  if (max < 4 * ids.length + 1024) {
    const table = new Int32Array(max + 1).fill(-1);
    for (let p = 0; p < ids.length; p++) table[ids[p]!] = p;
    // The table holds positions (or -1): its entries are read back as what they were written as.
    return (id) => (id <= max ? (table[id]! as DocId | -1) : -1);
  }
  const map = new Map<number, DocId>();
  for (let p = 0; p < ids.length; p++) map.set(ids[p]!, p as DocId);
  return (id) => map.get(id) ?? -1;
}

/** Jaccards as `pairsAtPositions` gives them: lifted to the threshold they were verified at when it is unchanged. */
function liftedJaccards(saved: VerifiedPairs, threshold: number): Float64Array {
  const out = new Float64Array(saved.count);
  const lift = saved.threshold === threshold;
  for (let p = 0; p < saved.count; p++) out[p] = lift ? Math.max(saved.jaccard[p]!, threshold) : saved.jaccard[p]!;
  return out;
}

/**
 * The saved pairs' own columns, when they already are what `pairsAtPositions` makes: each stored id
 * at its own position (a CLI cache, a corpus saved in path order), every member its class's
 * representative, (a, b) rising without repeats. One pass over typed columns instead of a lookup,
 * a mapping and a copy of every pair (the common case: the last scan wrote them so). Null otherwise;
 * with `strict`, a pair naming an id that is not stored is still found by the general path.
 */
function pairsAsSaved(saved: VerifiedPairs, ids: StorageIds, threshold: number, representative: Int32Array | undefined, strict: boolean): PositionPairs | null {
  const n = ids.length;
  for (let p = 0; p < n; p++) if (ids[p] !== p) return null;
  const m = saved.count;
  const { a, b } = saved;
  let lastA = -1;
  let lastB = -1;
  for (let p = 0; p < m; p++) {
    const x = a[p]!;
    const y = b[p]!;
    if (!(x < y && y < n) || x < lastA || (x === lastA && y <= lastB)) return null;
    if (representative && (representative[x] !== x || representative[y] !== y)) return null;
    if (strict && !(saved.jaccard[p]! >= saved.threshold - 1e-6 && saved.jaccard[p]! <= 1)) return null;
    lastA = x;
    lastB = y;
  }
  return { a: a.subarray(0, m), b: b.subarray(0, m), distance: saved.distance.subarray(0, m), jaccard: liftedJaccards(saved, threshold), count: m };
}
