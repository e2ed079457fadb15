import { describe, expect, it } from 'vitest';
import { createWorkerBridge, isAbortError } from '../../../src/workers/worker-bridge.ts';
import { createWorkerPool } from '../../../src/workers/worker-pool.ts';
import { channelSpawner } from './comlink-channel.ts';

const api = {
  async double(x: number) {
    return 2 * x;
  },
  never(): Promise<number> {
    return new Promise(() => undefined);
  },
  async fail(): Promise<number> {
    throw new Error('boom');
  },
};
type Api = typeof api;

describe('worker bridge', () => {
  it('starts the worker lazily, on the first call', async () => {
    const s = channelSpawner(api);
    const bridge = createWorkerBridge<Api>(s.spawn);
    expect(s.spawned()).toBe(0);
    await expect(bridge.call(undefined, (w) => w.double(21))).resolves.toBe(42);
    await expect(bridge.call(undefined, (w) => w.double(2))).resolves.toBe(4);
    expect(s.spawned()).toBe(1);
    bridge.terminate();
  });

  it('rejects a pending call as soon as its signal aborts, terminates the worker, and restarts on the next call', async () => {
    const s = channelSpawner(api);
    const bridge = createWorkerBridge<Api>(s.spawn);
    const controller = new AbortController();
    const pending = bridge.call(controller.signal, (w) => w.never());
    controller.abort();
    // `never()` never settles in the worker: only the abort can reject the call.
    const error = await pending.catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
    expect(s.terminated()).toBe(1);
    expect(bridge.pending).toBe(0);
    await expect(bridge.call(undefined, (w) => w.double(5))).resolves.toBe(10);
    expect(s.spawned()).toBe(2);
    bridge.terminate();
  });

  it('rejects at once when the signal is already aborted, without starting a worker', async () => {
    const s = channelSpawner(api);
    const bridge = createWorkerBridge<Api>(s.spawn);
    const error = await bridge.call(AbortSignal.abort(), (w) => w.double(1)).catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
    expect(s.spawned()).toBe(0);
  });

  it('passes a remote error through', async () => {
    const bridge = createWorkerBridge<Api>(channelSpawner(api).spawn);
    await expect(bridge.call(undefined, (w) => w.fail())).rejects.toThrow('boom');
    bridge.terminate();
  });
});

describe('worker pool', () => {
  it('spreads concurrent calls over its workers and aborts them all together', async () => {
    const s = channelSpawner(api);
    const pool = createWorkerPool<Api>(s.spawn, 3);
    expect(pool.size).toBe(3);
    const results = await Promise.all([1, 2, 3, 4, 5, 6].map((x) => pool.run(undefined, (w) => w.double(x))));
    expect(results).toEqual([2, 4, 6, 8, 10, 12]);
    expect(s.spawned()).toBe(3);
    const controller = new AbortController();
    const hanging = [0, 1, 2].map(() => pool.run(controller.signal, (w) => w.never()).catch((e: unknown) => e));
    controller.abort();
    for (const outcome of await Promise.all(hanging)) expect(isAbortError(outcome)).toBe(true);
    expect(s.terminated()).toBe(3);
    pool.terminate();
  });
});
