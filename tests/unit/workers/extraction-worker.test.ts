// A document that passes its time limit is stopped by terminating the worker that extracts it; the
// next document gets a fresh worker (real worker threads, the CLI's extract.thread.ts).
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { createWorkerExtractor } from '../../../src/workers/extraction-worker.ts';
import { spawnThread } from '../../../src/cli/node-worker.ts';
import { DEFAULT_EXTRACTION_LIMITS } from '../../../src/core/text/documents/extraction.ts';

const pdf = new Uint8Array(readFileSync(new URL('../../fixtures/documents/cc0.pdf', import.meta.url)));

it('stops a document past its time limit by terminating its worker, and extracts the next in a fresh one', async () => {
  const started: Array<ReturnType<typeof spawnThread>> = [];
  const extract = createWorkerExtractor(() => {
    const worker = spawnThread(new URL('../../../src/cli/extract.thread.ts', import.meta.url));
    started.push(worker);
    return worker;
  });
  // A limit of 0 ms has passed before the worker can answer: whatever it is doing, it is stopped.
  const stopped = await extract(pdf, 'pdf', { ...DEFAULT_EXTRACTION_LIMITS, maxMillis: 0 });
  expect(stopped).toEqual({ ok: false, reason: 'over-limit', message: 'extraction took longer than 0 s and was stopped' });
  const read = await extract(pdf, 'pdf', DEFAULT_EXTRACTION_LIMITS);
  expect(read.ok).toBe(true);
  expect(started.length).toBe(2);
  started[1]!.terminate();
});
