/**
 * `simsift pairs` runs its kernels in V8's optimizing tier from their first call (cli/wasm-top-tier.ts):
 * loading the command sets the flag before any kernel is compiled.
 */
import { setFlagsFromString } from 'node:v8';
import { expect, it } from 'vitest';

it('loading the pairs command makes the pair kernel compile straight to optimized code', async () => {
  await import('../../../src/cli/pairs-command.ts');
  const { createPairScanArena } = await import('../../../src/core/index/pair-scan.ts');
  const arena = createPairScanArena(16, 16);
  const kernel = arena.kernel;
  // Called once each on nothing (V8 compiles a function at its first call).
  kernel.groupByKey(arena.hiAt, arena.loAt, 0, arena.keysAt, arena.endsAt, 1, 31, 0, arena.hiAt, 0, 0, 0, arena.hiAt, 0, 0, 0, arena.hiAt, 0, 0, 0, arena.hiAt, 0, 0, 0, arena.groupedAt, 0);
  kernel.scanRuns(arena.groupedAt, arena.endsAt, 0, 0, 0, 3, 0, 0, arena.differAt, 0, arena.outAt, arena.capacity);
  // V8's test intrinsics, parsed only where the flag is set (it stays set: harmless to later tests).
  setFlagsFromString('--allow-natives-syntax');
  const optimized = new Function('f', 'return %IsTurboFanFunction(f)') as (f: unknown) => boolean;
  expect([optimized(kernel.groupByKey), optimized(kernel.scanRuns)]).toEqual([true, true]);
});
