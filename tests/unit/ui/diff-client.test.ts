// The pair view's diff client goes through the one worker bridge: a diff runs in its worker, an abort
// rejects it and replaces the worker, and a newer diff replaces a worker still busy with an older one.
import { expect, it } from 'vitest';
import { createDiffClient } from '../../../src/ui/pair-view/diff-client.ts';
import { diffApi } from '../../../src/workers/diff-api.ts';
import { isAbortError } from '../../../src/workers/worker-bridge.ts';
import { channelSpawner } from '../workers/comlink-channel.ts';

it('diffs in its worker, rejects an aborted diff and starts a fresh worker after it', async () => {
  const s = channelSpawner(diffApi);
  const client = createDiffClient(s.spawn);
  const done = await client.diff('one two three', 'one three', {}, new AbortController().signal);
  expect(done.removedChars).toBeGreaterThan(0);
  const controller = new AbortController();
  const pending = client.diff('a b c', 'a c', {}, controller.signal);
  controller.abort();
  expect(isAbortError(await pending.catch((e: unknown) => e))).toBe(true);
  expect(s.terminated()).toBe(1);
  await client.diff('x y', 'x z', {}, new AbortController().signal);
  expect(s.spawned()).toBe(2);
  client.dispose();
  expect(s.terminated()).toBe(2);
});
