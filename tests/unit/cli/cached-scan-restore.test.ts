/**
 * The second scan's restore takes the cache's exact classes instead of grouping the whole folder on
 * the index thread (#34: the folder was grouped twice, at the restore and at the merge).
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runScan } from '../../../src/cli/scan-command.ts';
import { readScanCache } from '../../../src/cli/scan-cache.ts';
import { restoreCache } from '../../../src/cli/cached-scan.ts';
import { createNodeScanWorkers } from '../../../src/cli/node-scan-workers.ts';
import { findCandidates } from '../../../src/scan/near-duplicate-search.ts';
import { concatSets } from '../../../src/core/groups/packed-sets.ts';
import { noContents } from '../../../src/scan/scan-result.ts';
import { restoredPositions } from '../../../src/corpus/stored-documents.ts';
import type { ScanWorkers } from '../../../src/workers/scan-workers.ts';
import { TEXTS } from '../corpus/corpus-model.ts';
import { runCommand } from './run-command.ts';

const root = mkdtempSync(join(tmpdir(), 'simsift-restore-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("simsift scan --cache's restore", () => {
  it('restores the exact classes from the cache, asking the index thread nothing, and they are the ones it would find', async () => {
    const dir = join(root, 'folder');
    const cacheFile = join(root, 'cache');
    mkdirSync(dir);
    // Copies in both orders around their originals, a short text and a binary file.
    TEXTS.slice(0, 6).forEach((text, i) => writeFileSync(join(dir, `t${i}.txt`), text));
    writeFileSync(join(dir, 'a-copy-of-t3.txt'), TEXTS[3]!);
    writeFileSync(join(dir, 'z-copy-of-t1.txt'), TEXTS[1]!);
    writeFileSync(join(dir, 'short.txt'), 'three words only');
    writeFileSync(join(dir, 'bin.dat'), Buffer.from([0, 1, 2, 0, 3]));
    expect((await runCommand(runScan, [dir, '--cache', cacheFile, '--out', join(root, 'out.csv')])).code).toBe(0);
    const cache = (await readScanCache(cacheFile))!;

    const workers = createNodeScanWorkers(1);
    try {
      let indexCalls = 0;
      const counting: ScanWorkers = { ...workers, index: { ...workers.index, call: (signal, f) => (indexCalls++, workers.index.call(signal, f)) } };
      const restored = await restoreCache(counting, new AbortController().signal, cache);
      expect(indexCalls).toBe(0);
      // The index thread's grouping of the same restored documents gives the same classes.
      const files = new Array<Blob>(cache.corpus.count).fill(noContents());
      const { docs } = restoredPositions(cache.corpus, { files }, [], undefined);
      const grouped = await findCandidates(workers, new AbortController().signal, docs, cache.settings, concatSets([]), { k: 0, similarityThreshold: 0.8, grouping: 'reference' });
      expect(Array.from(restored.result.representative)).toEqual(Array.from(grouped.representative));
      expect(Array.from(restored.search!.reps)).toEqual(Array.from(grouped.corpus.reps));
      expect(restored.result.representative.some((r, d) => r >= 0 && r !== d)).toBe(true);
    } finally {
      workers.ingest.terminate();
      workers.index.terminate();
    }
  });

  it('writes, with containment off (the index thread building the CSV right after grouping), the CSV of a scan without the cache', async () => {
    const dir = join(root, 'folder2');
    const cacheFile = join(root, 'cache2');
    mkdirSync(dir);
    TEXTS.slice(0, 6).forEach((text, i) => writeFileSync(join(dir, `t${i}.txt`), text));
    writeFileSync(join(dir, 'copy, of t2.txt'), TEXTS[2]!);
    const scan = async (out: string, extra: string[]) => {
      const r = await runCommand(runScan, [dir, '--threads', '1', '--out', join(root, out), ...extra]);
      expect(r.code, r.err).toBe(0);
      return readFileSync(join(root, out));
    };
    await scan('first.csv', ['--cache', cacheFile]);
    appendFileSync(join(dir, 't1.txt'), `\n${TEXTS[0]!.slice(0, 400)}`);
    const cached = await scan('second.csv', ['--cache', cacheFile]);
    expect(cached.toString('utf8')).toMatch(/copy, of t2/);
    expect(cached.equals(await scan('fresh.csv', []))).toBe(true);
  });
});
