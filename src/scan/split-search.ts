/**
 * Owns the scan's candidate search over every worker once reading is done: the index worker groups
 * exact duplicates, then it and each ingest worker search one range of the permuted tables over the
 * representatives' fingerprints (workers/table-search.ts), and the index worker sorts the parts into
 * the one candidate list. The tables are independent and the parts concatenate to the single search's
 * pairs, so the candidates are the same, in the same order, whatever the number of parts.
 */
import { transfer } from 'comlink';
import { MAX_BLOCKS } from '../core/index/block-layout.ts';
import { chooseBlocks, queryPairsCheaper, searchNanoseconds } from '../core/index/search-cost.ts';
import type { CandidateSearchInput, CandidateSearchResult } from '../core/index/candidate-search.ts';
import type { DuplicateSearchInput, DuplicateSearchResult, ExactDuplicates } from '../core/groups/exact-duplicates.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import { searchTableRanges } from '../workers/table-search.ts';

/** Expected one-core search time (ns) from which the search is split by default: below it, the messages cost more than they save. */
const SPLIT_FROM_NS = 20e6;

/**
 * The parts a search of n fingerprints within k is split into: `workers.searchParts`, else the index
 * worker (unless `indexBusy`) and every ingest worker once the search is expected to take over 20 ms on one core.
 */
export function searchParts(workers: ScanWorkers, n: number, k: number, indexBusy = false): number {
  const parts = workers.searchParts ?? (searchNanoseconds(n, k) >= SPLIT_FROM_NS ? workers.ingest.size + (indexBusy ? 0 : 1) : 1);
  return Math.max(1, Math.floor(parts));
}

/**
 * Candidate pairs of `input.reps` within k, as the index worker's `searchCandidates` finds them, with
 * the tables' search split into `parts` ranges: the first on the index worker, the others on the
 * ingest workers (one each while there are enough). A search the index worker does better alone (one
 * part, fewer than two representatives, k beyond any block layout, a few queries compared directly)
 * stays there. `indexBusy` (the index worker searches containment's candidates meanwhile): every part,
 * the parts' merge and a search alone go to the ingest workers, so none waits behind that search.
 */
export async function searchCandidatesSplit(
  workers: ScanWorkers,
  signal: AbortSignal,
  input: CandidateSearchInput,
  parts?: number,
  indexBusy = false,
): Promise<CandidateSearchResult> {
  const { reps, hi, lo, k, queries } = input;
  const n = reps.length;
  parts ??= searchParts(workers, n, k, indexBusy);
  const merge = (x: CandidateSearchInput) =>
    indexBusy ? workers.ingest.run(signal, (api) => api.searchCandidates(x)) : workers.index.call(signal, (api) => api.searchCandidates(x));
  const alone = () => merge(input);
  if (parts <= 1 || n < 2 || (input.blocks === undefined && k > MAX_BLOCKS - 1)) return alone();
  if (queries) {
    let q = 0;
    for (let r = 0; r < n; r++) if (queries[reps[r]]) q++;
    if (queryPairsCheaper(q, n, k)) return alone();
  }
  const blocks = input.blocks ?? chooseBlocks(n, k);
  const { parts: found } = await searchTableRanges(
    (request, part) =>
      part === 0 && !indexBusy
        ? workers.index.call(signal, (api) => api.pairsForTables(request))
        : // Submitted together, the ranges spread one to each ingest worker (the pool picks the least busy).
          workers.ingest.run(signal, (api) => api.pairsForTables(request)),
    parts,
    hi,
    lo,
    k,
    blocks,
  );
  const buffers = found.flatMap((p) => [p.a.buffer, p.b.buffer, p.distance.buffer]) as ArrayBuffer[];
  return merge(transfer({ ...input, blocks, found }, buffers));
}

/**
 * `indexApi.findDuplicates` (no external pairs) with its search split over every worker: exact
 * groups in the index worker, then `searchCandidatesSplit` over the representatives. `pairsMs` is
 * the split search's wall time on this thread. `afterExact` hears the exact groups before the search
 * starts and says whether it gave the index worker other work (then the search keeps off it).
 */
export async function findDuplicatesSplit(
  workers: ScanWorkers,
  signal: AbortSignal,
  input: Omit<DuplicateSearchInput, 'external'>,
  afterExact?: (exact: Omit<ExactDuplicates, 'repHi' | 'repLo'>) => boolean,
): Promise<DuplicateSearchResult> {
  const { known, queries, ...docs } = input;
  const { repHi, repLo, ...exact } = await workers.index.call(signal, (api) => api.groupExactDuplicates(docs));
  const indexBusy = afterExact?.(exact) ?? false;
  const t1 = performance.now();
  const search: CandidateSearchInput = {
    reps: exact.reps,
    hi: repHi,
    lo: repLo,
    k: input.k,
    ...(input.blocks !== undefined ? { blocks: input.blocks } : {}),
    ...(known ? { known } : {}),
    ...(queries ? { queries } : {}),
  };
  const found = await searchCandidatesSplit(workers, signal, search, undefined, indexBusy);
  return { ...exact, ...found, pairsMs: performance.now() - t1 };
}
