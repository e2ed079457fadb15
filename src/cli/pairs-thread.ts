/**
 * The worker_threads side of threaded all-pairs: receives the shared fingerprints and a range of
 * tables, runs the pure `allPairsForTables`, and transfers the pairs back.
 */
import { parentPort } from 'node:worker_threads';
import { PairLimitError, allPairsForTables } from '../core/index/all-pairs.ts';
import { blockLayout } from '../core/index/block-layout.ts';
import { trimPairList } from '../core/index/pair-list.ts';

/** A request from `pairs-threads.ts`: tables [firstTable, endTable) of layout (k, blocks). */
export interface PairsThreadRequest {
  id: number;
  hi: Uint32Array;
  lo: Uint32Array;
  k: number;
  blocks: number;
  firstTable: number;
  endTable: number;
  /** The pair limit shared by the pool's threads (an Int32Array over a SharedArrayBuffer), if any. */
  limit?: { limit: number; shared: Int32Array };
}

/** The answer: the range's pairs (buffers transferred) or the error message. */
export type PairsThreadReply =
  | { id: number; ok: true; a: Uint32Array; b: Uint32Array; distance: Uint8Array; count: number; seconds: number }
  | { id: number; ok: false; message: string; overLimit: boolean };

const port = parentPort;
if (!port) throw new Error('pairs-thread.ts must run as a worker thread');

port.on('message', (req: PairsThreadRequest) => {
  try {
    const started = performance.now();
    const layout = blockLayout(req.k, req.blocks);
    const pairs = trimPairList(allPairsForTables(req.hi, req.lo, layout, req.firstTable, req.endTable, req.limit));
    const reply: PairsThreadReply = { id: req.id, ok: true, ...pairs, seconds: (performance.now() - started) / 1000 };
    port.postMessage(reply, [pairs.a.buffer, pairs.b.buffer, pairs.distance.buffer] as ArrayBuffer[]);
  } catch (error) {
    const reply: PairsThreadReply = {
      id: req.id,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      overLimit: error instanceof PairLimitError,
    };
    port.postMessage(reply);
  }
});
port.postMessage('ready');
