/**
 * The pair-search worker's API: all pairs within k over a consecutive range of a layout's tables, the
 * part of `allPairs` one worker takes (the CLI's threaded search: cli/pairs-threads.ts). Pure, so it runs
 * the same called in-process or over comlink in a worker thread (cli/pairs.thread.ts).
 */
import { transfer } from 'comlink';
import { allPairsForTables } from '../core/index/all-pairs.ts';
import { blockLayout } from '../core/index/block-layout.ts';
import { allPairsForClaimedRuns, tableRuns, type ClaimedPairs } from '../core/index/claimed-runs.ts';
import { sortPairs, trimPairList, type PairLimit, type PairList } from '../core/index/pair-list.ts';

/** Tables [firstTable, endTable) of layout (k, blocks) over fingerprints `hi`/`lo` (shared between workers when in a SharedArrayBuffer). */
export interface TableRangeRequest {
  hi: Uint32Array;
  lo: Uint32Array;
  k: number;
  blocks: number;
  firstTable: number;
  endTable: number;
  /** The pair limit shared by the workers of one search (an Int32Array over a SharedArrayBuffer), if any. */
  limit?: PairLimit;
}

/** A range's pairs (trimmed, buffers transferred) and the seconds the worker spent finding them. */
export type TableRangePairs = PairList & { seconds: number };

/**
 * A search whose runs of tables the threads claim as they get to them (core/index/claimed-runs.ts):
 * `next` is the counter they share (an Int32Array over a SharedArrayBuffer, starting at 0).
 */
export interface ClaimedRunsRequest {
  hi: Uint32Array;
  lo: Uint32Array;
  k: number;
  blocks: number;
  next: Int32Array;
  limit?: PairLimit;
  /** Each thread sorts its own pairs by (a, b) (`taken` and `ends` then say nothing of the order); the caller merges them. */
  sort?: boolean;
}

/** The runs this thread took, their pairs (trimmed, buffers transferred) and the seconds it spent. */
export type ClaimedRunsPairs = ClaimedPairs & { seconds: number };

export const pairsApi = {
  /** Answers once the worker has loaded its code (lets a caller start workers before it has work). */
  ready(): true {
    return true;
  },

  /** The range's pairs; throws a `PairLimitError` once the search's pairs pass `limit`. */
  pairsForTables(request: TableRangeRequest): TableRangePairs {
    const started = performance.now();
    const layout = blockLayout(request.k, request.blocks);
    const pairs = trimPairList(allPairsForTables(request.hi, request.lo, layout, request.firstTable, request.endTable, request.limit));
    const result = { ...pairs, seconds: (performance.now() - started) / 1000 };
    return transfer(result, [pairs.a.buffer, pairs.b.buffer, pairs.distance.buffer] as ArrayBuffer[]);
  },

  /** The pairs of the runs of tables this thread claims until none is left (none, if it comes late). */
  pairsForClaimedRuns(request: ClaimedRunsRequest): ClaimedRunsPairs {
    const started = performance.now();
    const layout = blockLayout(request.k, request.blocks);
    const found = allPairsForClaimedRuns(request.hi, request.lo, layout, tableRuns(layout), request.next, request.limit);
    const pairs = request.sort ? sortPairs(found.pairs) : trimPairList(found.pairs);
    const result = { pairs, taken: found.taken, ends: found.ends, seconds: (performance.now() - started) / 1000 };
    return transfer(result, [pairs.a.buffer, pairs.b.buffer, pairs.distance.buffer, found.taken.buffer, found.ends.buffer] as ArrayBuffer[]);
  },
};

export type PairsApi = typeof pairsApi;
