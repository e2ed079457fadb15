/**
 * The merge step: a scan's own result joined to the saved corpus it was scanned into. Only pairs with
 * a new member are searched for; every Jaccard known before (the saved verified pairs, and whatever the
 * saved corpus and the scan measured) is carried, and a document whose contents cannot be read is never
 * measured again (its new pairs stay unmeasured and are counted, never scored 0). Framework-free and
 * free of storage: it computes the merged result, the caller saves it.
 */
import type { KnownPairs } from '../workers/index-api.ts';
import type { PackedSets } from '../workers/ingest-protocol.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import { concatSets, decideNearDuplicates } from './near-duplicate-search.ts';
import type { Candidates, SearchCorpus } from './near-duplicate-search.ts';
import { concatDocs } from './restore-corpus.ts';
import type { GroupedCorpus, GroupingOptions } from './restore-corpus.ts';
import type { ScanResult, SkippedFile } from './scan-result.ts';

/** A corpus on show: its result, each position's storage id, and the search state behind it when known. */
export interface CorpusPart {
  result: ScanResult;
  storageIds: Uint32Array;
  /** Feature sets of small documents and every Jaccard measured so far (null: only `result.verified`). */
  search: SearchCorpus | null;
}

/** What a merge produced. */
export interface MergeOutcome {
  merged: CorpusPart;
  grouped: GroupedCorpus;
  /** Candidate pairs with a new member that could not be measured: the saved member's contents are not kept. */
  unmeasured: number;
}

/** Pairs as rows [a, b, jaccard], for sorting and de-duplicating known Jaccards of two parts. */
type Row = [number, number, number];

/** The Jaccards a part knows, at positions shifted by `offset`: its search cache, else its verified pairs. */
function knownRows(part: CorpusPart, offset: number, out: Row[]): void {
  const known = part.search?.known;
  if (known && known.count > 0) {
    for (let p = 0; p < known.count; p++) out.push([known.a[p]! + offset, known.b[p]! + offset, known.jaccard[p]!]);
  }
  // The verified pairs too: the short-document join's pairs are in them, not always in the cache.
  const v = part.result.verified;
  for (let p = 0; p < v.count; p++) {
    const a = v.a[p]! + offset;
    const b = v.b[p]! + offset;
    out.push([Math.min(a, b), Math.max(a, b), v.jaccard[p]!]);
  }
}

function sortedUnique(rows: Row[]): KnownPairs {
  rows.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const a: number[] = [];
  const b: number[] = [];
  const j: number[] = [];
  for (const r of rows) {
    const last = a.length - 1;
    if (last >= 0 && a[last] === r[0] && b[last] === r[1]) continue;
    a.push(r[0]);
    b.push(r[1]);
    j.push(r[2]);
  }
  return { a: Uint32Array.from(a), b: Uint32Array.from(b), jaccard: Float64Array.from(j), count: a.length };
}

function shiftSets(sets: PackedSets, offset: number): PackedSets {
  return { docs: sets.docs.map((d) => d + offset), offsets: sets.offsets, keys: sets.keys };
}

/**
 * Merges `own` (a scan's result, positions after the saved ones) into `before` (the saved corpus) and
 * groups the union with `options`. Candidates: every pair within k with a new member, plus the saved
 * corpus' pairs as they were decided (with their Jaccards); saved-vs-saved pairs are searched again only
 * when k or the threshold changed since they were decided (a regroup), and then measured only where
 * both contents can be read.
 */
export async function mergeCorpus(
  workers: ScanWorkers,
  signal: AbortSignal,
  before: CorpusPart,
  own: CorpusPart,
  options: GroupingOptions,
): Promise<MergeOutcome> {
  const t0 = performance.now();
  const old = before.result.docs;
  const offset = old.count;
  const docs = concatDocs(old, own.result.docs);
  const storageIds = new Uint32Array(docs.count);
  storageIds.set(before.storageIds, 0);
  storageIds.set(own.storageIds, offset);
  const skipped: SkippedFile[] = [
    ...before.result.skipped,
    ...own.result.skipped.map((s) => (s.docId < 0 ? s : { ...s, docId: s.docId + offset })),
  ];
  const rows: Row[] = [];
  knownRows(before, 0, rows);
  knownRows(own, offset, rows);
  const known = sortedUnique(rows);

  const found = await workers.index.call(signal, (api) =>
    api.findDuplicates({ status: docs.status.slice(), hi: docs.hi.slice(), lo: docs.lo.slice(), words: docs.words.slice(), hashHi: docs.hashHi, hashLo: docs.hashLo, k: options.k, known }),
  );
  const t1 = performance.now();
  // Saved-vs-saved candidates were all decided under the same k and threshold: the accepted ones are
  // in `known`, the others were rejected (or could not be measured) and stay so.
  const decided = before.result.k === options.k && before.result.similarityThreshold === options.similarityThreshold;
  const c = found.candidates;
  const keep: Row[] = [];
  const distanceOf = new Map<string, number>();
  for (let p = 0; p < c.count; p++) {
    const a = c.a[p]!;
    const b = c.b[p]!;
    const j = found.jaccard[p]!;
    if (a < offset && b < offset && decided && Number.isNaN(j)) continue;
    keep.push([a, b, j]);
    distanceOf.set(`${a},${b}`, c.distance[p]!);
  }
  // Saved verified pairs the search at k does not propose (short-document join pairs further apart):
  // kept as decided, since their small feature sets may not be readable any more.
  const v = before.result.verified;
  for (let p = 0; p < v.count; p++) {
    const a = Math.min(v.a[p]!, v.b[p]!);
    const b = Math.max(v.a[p]!, v.b[p]!);
    if (found.representative[a] !== a || found.representative[b] !== b || distanceOf.has(`${a},${b}`)) continue;
    keep.push([a, b, v.jaccard[p]!]);
    distanceOf.set(`${a},${b}`, v.distance[p]!);
  }
  keep.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const candidates: Candidates = {
    k: options.k,
    pairs: {
      a: Uint32Array.from(keep, (r) => r[0]),
      b: Uint32Array.from(keep, (r) => r[1]),
      distance: Uint8Array.from(keep, (r) => distanceOf.get(`${r[0]},${r[1]}`)!),
      count: keep.length,
    },
    jaccard: Float64Array.from(keep, (r) => r[2]),
    histogram: found.histogram,
  };
  const resolved = { ...docs, status: found.status, hi: found.hi, lo: found.lo, words: found.words };
  const parts: PackedSets[] = [];
  if (before.search) parts.push(before.search.smallSets);
  if (own.search) parts.push(shiftSets(own.search.smallSets, offset));
  const corpus: SearchCorpus = { docs: resolved, settings: options.settings, reps: found.reps, smallSets: concatSets(parts), known };
  const near = await decideNearDuplicates(workers, signal, corpus, candidates, options);
  let unmeasured = 0;
  for (let p = 0; p < candidates.pairs.count; p++) if (Number.isNaN(candidates.jaccard[p]!)) unmeasured++;
  const t2 = performance.now();
  const result: ScanResult = {
    settings: options.settings,
    ...near,
    docs: resolved,
    skipped,
    representative: found.representative,
    exactGroups: found.exactGroups,
    partial: false,
    timings: { ...own.result.timings, indexingMs: t1 - t0, groupingMs: t2 - t1, totalMs: own.result.timings.totalMs + (t2 - t0) },
  };
  return { merged: { result, storageIds, search: corpus }, grouped: { result, corpus, candidates }, unmeasured };
}
