/**
 * main.ts starts `simsift pairs`' first worker thread from argv alone (pairs-early.ts) and hands it to the
 * command: started only when the command would ask for one, taken as the pool's first worker (so its
 * failure before it was taken fails the command as any worker's does), and terminated when not used.
 */
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { runPairs } from '../../../src/cli/pairs-command.ts';
import { startEarlyPairsThread, watchEarlyThread } from '../../../src/cli/pairs-early.ts';
import { toHex } from '../../../src/core/simhash/fingerprint64.ts';
import { bruteForcePairs, plantedSet } from '../core/index/test-fingerprints.ts';
import { runCommand } from './run-command.ts';

const dir = mkdtempSync(join(tmpdir(), 'simsift-pairs-early-'));
const fp = plantedSet(600, 200, 5, 5);
const fpFile = join(dir, 'fingerprints.txt');
writeFileSync(fpFile, Array.from(fp.hi, (h, i) => toHex(h, fp.lo[i])).join('\n') + '\n');

/** A thread that has ended by the time it is handed over: exited with `code`, or thrown `message` as it loaded. */
async function endedThread(end: { code: number } | { message: string }) {
  const source = 'code' in end ? `process.exit(${end.code})` : `throw new Error(${JSON.stringify(end.message)})`;
  const early = watchEarlyThread(new Worker(source, { eval: true }));
  // Not events.once: it rejects on the 'error' that comes first.
  await new Promise((resolve) => early.thread.on('exit', resolve));
  return early;
}

describe('the early pairs thread', { timeout: 20_000 }, () => {
  it('is started only when the command would start one from its arguments and the file size', () => {
    for (const argv of [['--help'], [fpFile, '--threads', '1'], [fpFile, '--engine', 'duckdb', '--threads', '2'], [join(dir, 'missing'), '--threads', '2'], [fpFile, '--k', 'x'], [fpFile, '--k', '3']]) {
      expect(startEarlyPairsThread(argv), argv.join(' ')).toBeNull();
    }
  });

  it('is the pool\'s first worker: one that ended before the command took it fails the command', async () => {
    for (const [end, message] of [[{ code: 3 }, 'the thread exited with code 3'], [{ message: 'boom' }, 'boom']] as const) {
      const early = await endedThread(end);
      const { code, err } = await runCommand((argv, io) => runPairs(argv, io, early), [fpFile, '--k', '3', '--threads', '2']);
      expect(err).toContain(`A worker failed: ${message}`);
      expect(code).toBe(1);
    }
  });

  it('is terminated when the command searches on one thread', async () => {
    const early = startEarlyPairsThread([fpFile, '--k', '3', '--threads', '2'])!;
    expect(early).not.toBeNull();
    const exited = once(early.thread, 'exit');
    const { code, out } = await runCommand((argv, io) => runPairs(argv, io, early), [fpFile, '--k', '3', '--threads', '1']);
    expect(code).toBe(0);
    expect(out.trimEnd().split('\n')).toEqual(bruteForcePairs(fp, 3));
    await exited;
  });
});
