/**
 * Test transport: a comlink endpoint pair over a real MessageChannel, standing in for `new Worker`
 * in Node (which has no Web Workers). The API runs on this thread, behind real structured cloning.
 */
import { expose } from 'comlink';

/** Returns a `spawn` function whose "workers" expose `api` over a MessageChannel. */
export function channelSpawner(api: object): { spawn: () => Worker; spawned: () => number; terminated: () => number } {
  let spawned = 0;
  let terminated = 0;
  return {
    spawned: () => spawned,
    terminated: () => terminated,
    spawn: () => {
      spawned++;
      const { port1, port2 } = new MessageChannel();
      expose(api, port2);
      port1.start();
      const fake = port1 as unknown as Worker & { terminate(): void };
      fake.terminate = () => {
        terminated++;
        port1.close();
        port2.close();
      };
      return fake;
    },
  };
}
