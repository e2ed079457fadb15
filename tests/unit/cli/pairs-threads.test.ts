/**
 * `simsift pairs`' threads run the pairs API (workers/pairs-api.ts) through the app's worker pool: the
 * API called in-process, the pool over in-process comlink channels and the pool over worker threads
 * find the same pairs as the single-thread search; the shared --max-pairs bound and an abort go
 * through the pool too.
 */
import { describe, expect, it } from 'vitest';
import { startPairsPool } from '../../../src/cli/pairs-threads.ts';
import { PairLimitError, allPairs, splitTables } from '../../../src/core/index/all-pairs.ts';
import { blockLayout } from '../../../src/core/index/block-layout.ts';
import { concatPairLists, type PairList } from '../../../src/core/index/pair-list.ts';
import { pairsApi } from '../../../src/workers/pairs-api.ts';
import { isAbortError } from '../../../src/workers/worker-bridge.ts';
import { channelSpawner } from '../workers/comlink-channel.ts';
import { plantedSet } from '../core/index/test-fingerprints.ts';

const fp = plantedSet(6000, 2000, 5, 11);
const k = 4;
const blocks = 6;
const single = allPairs(fp.hi, fp.lo, k, { blocks });
/** The API called in-process on each of three ranges of tables, as the three threads call it. */
const bounds = splitTables(blockLayout(k, blocks).tables.length, 3);
const ranges: PairList[] = [];
for (let p = 0; p + 1 < bounds.length; p++) {
  ranges.push(pairsApi.pairsForTables({ hi: fp.hi, lo: fp.lo, k, blocks, firstTable: bounds[p], endTable: bounds[p + 1] }));
}

function trimmed(list: PairList): [Uint32Array, Uint32Array, Uint8Array] {
  return [list.a.subarray(0, list.count), list.b.subarray(0, list.count), list.distance.subarray(0, list.count)];
}

describe('the pairs threads', { timeout: 60_000 }, () => {
  it('find, through the pool, the pairs the API finds in-process', async () => {
    expect(single.count).toBeGreaterThan(100);
    expect(ranges).toHaveLength(3);
    const inProcess = concatPairLists(ranges);
    expect(trimmed(inProcess)).toEqual(trimmed(single));

    const channels = channelSpawner(pairsApi);
    const overChannels = startPairsPool(3, channels.spawn);
    await overChannels.ready;
    // The caller searches one range itself: three threads, two workers.
    expect(channels.spawned()).toBe(2);
    expect(trimmed(await overChannels.allPairs(fp.hi, fp.lo, k, blocks))).toEqual(trimmed(single));
    expect(overChannels.lastThreadSeconds).toHaveLength(3);
    await overChannels.close();
    expect(channels.terminated()).toBe(2);

    const threads = startPairsPool(3);
    try {
      expect(trimmed(await threads.allPairs(fp.hi, fp.lo, k, blocks))).toEqual(trimmed(single));
      expect(threads.lastThreadSeconds).toHaveLength(3);
    } finally {
      await threads.close();
    }
  });

  it('share one --max-pairs bound between the threads and reject with a PairLimitError past it', async () => {
    // Each range alone stays under the bound: only the counter the threads share can stop the search.
    expect(Math.max(...ranges.map((r) => r.count))).toBeLessThan(single.count - 1);
    const threads = startPairsPool(3);
    try {
      const over = await threads.allPairs(fp.hi, fp.lo, k, blocks, single.count - 1).catch((e: unknown) => e);
      expect(over).toBeInstanceOf(PairLimitError);
      expect((over as PairLimitError).limit).toBe(single.count - 1);
      expect(trimmed(await threads.allPairs(fp.hi, fp.lo, k, blocks, single.count))).toEqual(trimmed(single));
    } finally {
      await threads.close();
    }
  });

  it('reject an aborted search and terminate its workers; the next search starts new ones', async () => {
    const controller = new AbortController();
    // The real API, aborting the search while its ranges are in the workers.
    const channels = channelSpawner({
      ...pairsApi,
      pairsForTables(request: Parameters<typeof pairsApi.pairsForTables>[0]) {
        controller.abort();
        return pairsApi.pairsForTables(request);
      },
    });
    const pool = startPairsPool(2, channels.spawn);
    const aborted = await pool.allPairs(fp.hi, fp.lo, k, blocks, undefined, controller.signal).catch((e: unknown) => e);
    expect(isAbortError(aborted)).toBe(true);
    expect(channels.terminated()).toBe(1);
    expect(trimmed(await pool.allPairs(fp.hi, fp.lo, k, blocks))).toEqual(trimmed(single));
    expect(channels.spawned()).toBe(2);
    await pool.close();
  });

  it('search the last range of tables on the calling thread, and give the workers the fingerprints in shared memory', async () => {
    const received: { firstTable: number; endTable: number; shared: boolean }[] = [];
    const channels = channelSpawner({
      ...pairsApi,
      pairsForTables(request: Parameters<typeof pairsApi.pairsForTables>[0]) {
        received.push({ firstTable: request.firstTable, endTable: request.endTable, shared: request.hi.buffer instanceof SharedArrayBuffer && request.lo.buffer instanceof SharedArrayBuffer });
        return pairsApi.pairsForTables(request);
      },
    });
    const two = splitTables(blockLayout(k, blocks).tables.length, 2);
    const pool = startPairsPool(2, channels.spawn);
    try {
      expect(trimmed(await pool.allPairs(fp.hi, fp.lo, k, blocks))).toEqual(trimmed(single));
      expect(channels.spawned()).toBe(1);
      expect(received).toEqual([{ firstTable: 0, endTable: two[1], shared: true }]);
      expect(pool.lastThreadSeconds).toHaveLength(2);
    } finally {
      await pool.close();
    }
    // One thread is the caller alone: no worker at all.
    const alone = startPairsPool(1, channels.spawn);
    expect(trimmed(await alone.allPairs(fp.hi, fp.lo, k, blocks))).toEqual(trimmed(single));
    expect(channels.spawned()).toBe(1);
    await alone.close();
  });
});
