/**
 * `simsift pairs`' threads run the pairs API (workers/pairs-api.ts) through the app's worker pool: the
 * API called in-process, the pool over in-process comlink channels and the pool over worker threads
 * find the same pairs as the single-thread search; the shared --max-pairs bound and an abort go
 * through the pool too.
 */
import { describe, expect, it, vi } from 'vitest';
import { startPairsPool } from '../../../src/cli/pairs-threads.ts';
import { allPairs, splitTables } from '../../../src/core/index/all-pairs.ts';
import { blockLayout } from '../../../src/core/index/block-layout.ts';
import { PairLimitError, concatPairLists, sortPairs, type PairList } from '../../../src/core/index/pair-list.ts';
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
    expect(overChannels.lastThreadTables.reduce((x, y) => x + y, 0)).toBe(blockLayout(k, blocks).tables.length);
    await overChannels.close();
    expect(channels.terminated()).toBe(2);

    const threads = startPairsPool(3);
    try {
      expect(trimmed(await threads.allPairs(fp.hi, fp.lo, k, blocks))).toEqual(trimmed(single));
      expect(threads.lastThreadSeconds).toHaveLength(threads.lastThreadTables.length);
      // Sorted where found, then merged: sortPairs' order, whichever thread took which tables.
      expect(trimmed(await threads.sortedPairs(fp.hi, fp.lo, k, blocks))).toEqual(trimmed(sortPairs(single)));
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
    const channels = channelSpawner(pairsApi);
    const pool = startPairsPool(2, channels.spawn);
    await pool.ready;
    // The caller's share is synchronous: an abort is seen before it starts, while it waits for the workers, or after.
    controller.abort();
    const aborted = await pool.allPairs(fp.hi, fp.lo, k, blocks, undefined, controller.signal).catch((e: unknown) => e);
    expect(isAbortError(aborted)).toBe(true);
    expect(channels.terminated()).toBe(1);
    expect(trimmed(await pool.allPairs(fp.hi, fp.lo, k, blocks))).toEqual(trimmed(single));
    expect(channels.spawned()).toBe(2);
    await pool.close();
  });

  it('give the workers the search in shared memory, and let the threads claim the tables between them', async () => {
    const received: { shared: boolean }[] = [];
    const channels = channelSpawner({
      ...pairsApi,
      pairsForClaimedRuns(request: Parameters<typeof pairsApi.pairsForClaimedRuns>[0]) {
        received.push({ shared: [request.hi, request.lo, request.next].every((a) => a.buffer instanceof SharedArrayBuffer) });
        return pairsApi.pairsForClaimedRuns(request);
      },
    });
    const tables = blockLayout(k, blocks).tables.length;
    const pool = startPairsPool(2, channels.spawn);
    try {
      await pool.ready;
      expect(trimmed(await pool.allPairs(fp.hi, fp.lo, k, blocks))).toEqual(trimmed(single));
      expect(channels.spawned()).toBe(1);
      // Sent before the caller searched; in-process, it arrives after (the caller took every table).
      await vi.waitFor(() => expect(received).toEqual([{ shared: true }]));
      // The caller, first, took what the worker had not: every table once between them.
      expect(pool.lastThreadTables.reduce((x, y) => x + y, 0)).toBe(tables);
      expect(pool.lastThreadSeconds).toHaveLength(pool.lastThreadTables.length);
    } finally {
      await pool.close();
    }
    // One thread is the caller alone: no worker at all.
    const alone = startPairsPool(1, channels.spawn);
    expect(trimmed(await alone.allPairs(fp.hi, fp.lo, k, blocks))).toEqual(trimmed(single));
    expect(alone.lastThreadTables).toEqual([tables]);
    expect(trimmed(await alone.sortedPairs(fp.hi, fp.lo, k, blocks))).toEqual(trimmed(sortPairs(single)));
    expect(channels.spawned()).toBe(1);
    await alone.close();
  });

  it('do not wait for a worker still loading its code: the caller searches every table it finds unclaimed', async () => {
    // A worker that has not loaded yet: it answers nothing until released, after the search.
    let release = () => {};
    const loaded = new Promise<void>((resolve) => (release = resolve));
    const channels = channelSpawner({
      ...pairsApi,
      async pairsForClaimedRuns(request: Parameters<typeof pairsApi.pairsForClaimedRuns>[0]) {
        await loaded;
        return pairsApi.pairsForClaimedRuns(request);
      },
    });
    const pool = startPairsPool(2, channels.spawn);
    try {
      expect(trimmed(await pool.allPairs(fp.hi, fp.lo, k, blocks))).toEqual(trimmed(single));
      expect(pool.lastThreadTables).toEqual([blockLayout(k, blocks).tables.length]);
    } finally {
      release();
      await pool.close();
    }
  }, 10_000);
});
