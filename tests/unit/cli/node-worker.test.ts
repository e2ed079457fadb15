// A worker thread that exits without an 'error' event (process.exit in it) rejects the bridge's pending
// call instead of leaving it pending forever; the bridge's next call starts a new thread.
import { expect, it } from 'vitest';
import { spawnThread } from '../../../src/cli/node-worker.ts';
import { createWorkerBridge } from '../../../src/workers/worker-bridge.ts';
import type { exitingApi } from './exiting.thread.ts';

it('rejects the calls of a thread that exits', { timeout: 30_000 }, async () => {
  let spawned = 0;
  const bridge = createWorkerBridge<typeof exitingApi>(() => {
    spawned++;
    return spawnThread(new URL('./exiting.thread.ts', import.meta.url));
  });
  for (const code of [3, 0]) {
    const failed = await bridge.call(undefined, (api) => api.exit(code)).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toBe(`A worker failed: the thread exited with code ${code}`);
  }
  expect(spawned).toBe(2);
  expect(bridge.pending).toBe(0);
});
