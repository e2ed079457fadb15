import { describe, expect, it } from 'vitest';
import {
  CORPUS_CHANNEL_NAME,
  WRITER_LOCK_NAME,
  createCorpusChannel,
  withWriterLock,
} from '../../../src/storage/tab-coordination.ts';
import type { CorpusChange, LockManagerLike } from '../../../src/storage/tab-coordination.ts';

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Node has no navigator.locks: a minimal exclusive lock manager with the Web Locks semantics the
 * module relies on (FIFO queue, ifAvailable gives null at once, abort signal rejects a waiting request).
 */
function exclusiveLocks(): LockManagerLike & { requests: string[] } {
  const queues = new Map<string, Array<() => void>>();
  const held = new Set<string>();
  const requests: string[] = [];
  return {
    requests,
    async request(name, options, callback) {
      requests.push(`${name}:${options.mode}:${options.ifAvailable ? 'ifAvailable' : 'wait'}`);
      if (options.ifAvailable && held.has(name)) return callback(null);
      if (held.has(name)) {
        await new Promise<void>((resolve, reject) => {
          const queue = queues.get(name) ?? [];
          queues.set(name, queue);
          queue.push(resolve);
          options.signal?.addEventListener('abort', () => {
            queue.splice(queue.indexOf(resolve), 1);
            reject(options.signal!.reason);
          });
        });
      }
      held.add(name);
      try {
        return await callback({ name });
      } finally {
        held.delete(name);
        const next = queues.get(name)?.shift();
        if (next) {
          held.add(name);
          next();
        }
      }
    },
  };
}

async function exerciseExclusion(locks: LockManagerLike | null): Promise<void> {
  const log: string[] = [];
  let release!: () => void;
  const first = withWriterLock(
    async () => {
      log.push('a start');
      await new Promise<void>((resolve) => (release = resolve));
      log.push('a end');
      return 'a';
    },
    { locks },
  );
  await tick();
  const busy = await withWriterLock(async () => 'never', { locks, wait: false });
  expect(busy).toEqual({ acquired: false });
  const second = withWriterLock(
    async () => {
      log.push('b');
      return 'b';
    },
    { locks },
  );
  await tick();
  expect(log).toEqual(['a start']);
  release();
  expect(await first).toEqual({ acquired: true, value: 'a' });
  expect(await second).toEqual({ acquired: true, value: 'b' });
  expect(log).toEqual(['a start', 'a end', 'b']);
  expect(await withWriterLock(async () => 1, { locks, wait: false })).toEqual({ acquired: true, value: 1 });
}

describe('writer lock', () => {
  it('uses the Web Locks API when present: one writer at a time, ifAvailable when not waiting', async () => {
    const locks = exclusiveLocks();
    await exerciseExclusion(locks);
    expect(locks.requests[0]).toBe(`${WRITER_LOCK_NAME}:exclusive:wait`);
    expect(locks.requests).toContain(`${WRITER_LOCK_NAME}:exclusive:ifAvailable`);
  });

  it('falls back to an in-tab queue without Web Locks', async () => {
    await exerciseExclusion(null);
  });

  it('releases the lock when the task throws', async () => {
    await expect(withWriterLock(async () => Promise.reject(new Error('boom')), { locks: null })).rejects.toThrow('boom');
    expect(await withWriterLock(async () => 2, { locks: null, wait: false })).toEqual({ acquired: true, value: 2 });
  });

  it('stops waiting when aborted', async () => {
    const locks = exclusiveLocks();
    let release!: () => void;
    const holder = withWriterLock(() => new Promise<void>((resolve) => (release = resolve)), { locks });
    await tick();
    const controller = new AbortController();
    const waiting = withWriterLock(async () => 'late', { locks, signal: controller.signal });
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    release();
    await holder;
  });
});

describe('corpus change channel', () => {
  it('tells other tabs (real BroadcastChannel) and ignores its own and malformed messages', async () => {
    const tabA = createCorpusChannel({ tabId: 'a' });
    const tabB = createCorpusChannel({ tabId: 'b' });
    const seenA: CorpusChange[] = [];
    const seenB: CorpusChange[] = [];
    tabA.subscribe((c) => seenA.push(c));
    const unsubscribe = tabB.subscribe((c) => seenB.push(c));
    expect(tabA.available).toBe(true);

    tabA.notify('added', 7);
    const stranger = new BroadcastChannel(CORPUS_CHANNEL_NAME);
    stranger.postMessage({ type: 'corpus-changed', reason: 'nonsense', revision: 1, source: 'x' });
    stranger.postMessage('hello');
    // A message claiming to come from tab a reaches b only.
    stranger.postMessage({ type: 'corpus-changed', reason: 'cleared', revision: 8, source: 'a' });
    await tick(30);
    expect(seenB).toEqual([
      { type: 'corpus-changed', reason: 'added', revision: 7, source: 'a' },
      { type: 'corpus-changed', reason: 'cleared', revision: 8, source: 'a' },
    ]);
    expect(seenA).toEqual([]);

    unsubscribe();
    tabA.notify('removed', 9);
    await tick(30);
    expect(seenB).toHaveLength(2);
    stranger.close();
    tabA.close();
    tabB.close();
  });

  it('is unavailable without BroadcastChannel, and notify is harmless', () => {
    const channel = createCorpusChannel({ factory: null });
    expect(channel.available).toBe(false);
    channel.notify('added', 1);
    channel.close();
  });
});
