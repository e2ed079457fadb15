/**
 * Reshapes the scan's per-document columns (ScanDocs): a subset or a reordering, two sets joined, and
 * the path order every corpus on show uses for its positions (ties are broken by what a person sees).
 */
import { rangesAt, type ScanDocs } from './scan-result.ts';
import { concatDocColumns, DOC_COLUMN_NAMES, gatherDocColumns } from '../core/documents/doc-columns.ts';

/** The columns every ScanDocs has (`modified` is optional). */
export const REQUIRED_COLUMNS = DOC_COLUMN_NAMES.filter((c): c is Exclude<typeof c, 'modified'> => c !== 'modified');

/** The columns of `docs` at `keep`, in that order. */
export function gatherDocs(docs: ScanDocs, keep: readonly number[]): ScanDocs {
  const n = keep.length;
  const paths = new Array<string>(n);
  const files = new Array<Blob>(n);
  for (let i = 0; i < n; i++) {
    paths[i] = docs.paths[keep[i]!]!;
    files[i] = docs.files[keep[i]!]!;
  }
  return {
    count: n,
    paths,
    files,
    ...(docs.ranges ? { ranges: rangesAt(docs, keep) } : {}),
    ...gatherDocColumns(docs, REQUIRED_COLUMNS, keep),
    ...(docs.modified ? gatherDocColumns({ modified: docs.modified }, ['modified'], keep) : {}),
  };
}

/** Two document sets, a then b (b's doc ids shift by a.count); `modified` is zeros for a part without it. */
export function concatDocs(a: ScanDocs, b: ScanDocs): ScanDocs {
  return {
    count: a.count + b.count,
    paths: [...a.paths, ...b.paths],
    files: [...a.files, ...b.files],
    ...(a.ranges || b.ranges ? { ranges: catRanges(a, b) } : {}),
    ...concatDocColumns(DOC_COLUMN_NAMES, [a, b]),
  };
}

/** The ranges of a then b (NaN, a whole file, for a part without ranges). */
function catRanges(a: ScanDocs, b: ScanDocs): Float64Array {
  const out = new Float64Array(2 * (a.count + b.count)).fill(Number.NaN);
  if (a.ranges) out.set(a.ranges, 0);
  if (b.ranges) out.set(b.ranges, 2 * a.count);
  return out;
}

/**
 * Positions sorted by path (UTF-16 code units, as collect-files sorts a listing): the order a corpus
 * is shown, grouped and exported in, whatever order its documents were saved or merged in, so a
 * reload or a resume gives the same references and group numbers as one uninterrupted scan.
 */
export function pathOrder(paths: readonly string[]): number[] {
  const n = paths.length;
  // Corpora come sorted, or as two sorted runs (the saved documents, then a scan's, in a merge): a
  // linear merge gives what the sort gives (ties by index) without 1.7 million string comparisons at 100,000.
  let split = 1;
  while (split < n && paths[split - 1]! <= paths[split]!) split++;
  let end = split + 1;
  while (end < n && paths[end - 1]! <= paths[end]!) end++;
  if (end >= n) {
    const order = new Array<number>(n);
    let i = 0;
    let j = split;
    for (let w = 0; w < n; w++) order[w] = j >= n || (i < split && paths[i]! <= paths[j]!) ? i++ : j++;
    return order;
  }
  const order = paths.map((_, i) => i);
  order.sort((x, y) => (paths[x]! < paths[y]! ? -1 : paths[x]! > paths[y]! ? 1 : x - y));
  return order;
}

/** True when `order` is 0, 1, 2, ... (nothing to move). */
export function isIdentity(order: readonly number[]): boolean {
  for (let i = 0; i < order.length; i++) if (order[i] !== i) return false;
  return true;
}

/**
 * For each of `paths`, its position in `within` (-1 when absent). Both are in path order in a scan
 * (the walk's listing, a saved corpus, a scan's documents): found by binary search for a few paths and
 * by one pass beside each other for many, never a map of every path; by a map when either is unsorted.
 */
export function positionsIn(paths: readonly string[], within: readonly string[]): Int32Array {
  const at = new Int32Array(paths.length).fill(-1);
  if (ascending(paths) && ascending(within)) {
    if (paths.length * Math.log2(within.length + 2) < within.length) {
      for (let i = 0; i < paths.length; i++) at[i] = indexInSorted(within, paths[i]);
      return at;
    }
    let j = 0;
    for (let i = 0; i < paths.length; i++) {
      const path = paths[i];
      while (j < within.length && within[j] < path) j++;
      if (j < within.length && within[j] === path) at[i] = j;
    }
    return at;
  }
  const positions = new Map<string, number>();
  within.forEach((path, j) => positions.set(path, j));
  for (let i = 0; i < paths.length; i++) at[i] = positions.get(paths[i]) ?? -1;
  return at;
}

/** The position of `path` in `sorted` (path order, no repeats), or -1. */
export function indexInSorted(sorted: readonly string[], path: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < path) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length && sorted[lo] === path ? lo : -1;
}

/** `paths` in path order: itself when it is (a walk's listing), else a sorted copy. */
export function sortedPaths(paths: readonly string[]): readonly string[] {
  return ascending(paths) ? paths : [...paths].sort();
}

/** True when `paths` are in path order, each once (a walk's listing, a saved corpus). */
export function ascending(paths: readonly string[]): boolean {
  for (let i = 1; i < paths.length; i++) if (!(paths[i - 1] < paths[i])) return false;
  return true;
}
