/**
 * Runs the document extractions of one ingest worker in a worker of its own, one document at a time,
 * and stops a document that passes its time limit by terminating that worker: the deadline inside the
 * extractors is checked only between steps (pages, chapters), and a step that never returns (pdf.js
 * inflating a stream, a parser in a loop) would otherwise hold the ingest worker and the scan.
 */
import { transfer } from 'comlink';
import type { Extractor } from '../core/text/documents/extract-document.ts';
import type { Extraction } from '../core/text/documents/extraction.ts';
import type { ExtractApi } from './extract-api.ts';
import { createWorkerBridge, type SpawnedWorker } from './worker-bridge.ts';

/** An Extractor that runs `extract` in workers made by `spawn` (a fresh one after each that was stopped). */
export function createWorkerExtractor(spawn: () => SpawnedWorker): Extractor {
  const bridge = createWorkerBridge<ExtractApi>(spawn);
  let turn: Promise<unknown> = Promise.resolve();
  const extractNow = async (...[bytes, format, limits]: Parameters<Extractor>): Promise<Extraction> => {
    const controller = new AbortController();
    const seconds = limits.maxMillis / 1000;
    const timer = setTimeout(() => controller.abort(new Error('time limit')), limits.maxMillis);
    // A copy of its own, transferred: `bytes` may be a view of a larger buffer the caller keeps.
    const own = bytes.slice();
    try {
      return await bridge.call<Extraction>(controller.signal, async (api) => await api.extract(transfer(own, [own.buffer]), format, limits));
    } catch (error) {
      if (controller.signal.aborted) return { ok: false, reason: 'over-limit', message: `extraction took longer than ${seconds} s and was stopped` };
      // The worker itself failed (out of memory on a hostile document): a limit, like a RangeError inside.
      return { ok: false, reason: 'over-limit', message: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
    }
  };
  return (...args) => {
    // One document at a time: stopping the worker for one must not stop another's extraction with it.
    const run = turn.then(() => extractNow(...args));
    turn = run.catch(() => undefined);
    return run;
  };
}
