import { describe, expect, it } from 'vitest';
import { createScanSession } from '../../../src/scan/scan-session.ts';
import { createScanStore } from '../../../src/scan/scan-store.ts';
import { streamed, type ScanBatch, type ScanStage, type ShownCorpus } from '../../../src/scan/scan-run.ts';
import { NO_EXCLUSIONS } from '../../../src/core/documents/exclusions.ts';
import { ingestApi, type IngestApi } from '../../../src/workers/ingest-api.ts';
import { inFolder, inThreadWorkers as workers } from './in-thread-workers.ts';

const text = (seed: number) => Array.from({ length: 60 }, (_, i) => `w${(seed * 7919 + i * 104729) % 100003}`).join(' ');
const files = () => Array.from({ length: 600 }, (_, i) => inFolder(`c/${String(i).padStart(3, '0')}.txt`, text(i)));

/** A stage that calls the scan's stages in order and records what it is handed. */
function recording(keepBytes: boolean) {
  const seen: number[] = [];
  const order: string[] = [];
  let withBytes = 0;
  let failure: unknown = null;
  const stage: ScanStage = async (scan) => {
    await scan.list();
    await scan.check(NO_EXCLUSIONS, null);
    const { docs } = scan.begin();
    order.push(`begin ${docs.count}`);
    try {
      for await (const batch of scan.read(keepBytes)) {
        seen.push(...batch.ids);
        if (batch.contents) withBytes++;
      }
    } catch (error) {
      failure = error;
      throw error;
    }
    order.push('read');
    const own: ShownCorpus = await scan.search();
    order.push('searched');
    return own;
  };
  return { stage, seen, order, withBytes: () => withBytes, failure: () => failure };
}

describe('a scan as stages its owner calls', () => {
  it('hands the owner every document once in the batches it reads, with their bytes when asked, before the search', async () => {
    const r = recording(true);
    const store = createScanStore({ k: 3 });
    await createScanSession(store, workers(), r.stage).start({ kind: 'file-list', files: files() });
    expect(store.getSnapshot().state).toBe('done');
    expect(r.order).toEqual(['begin 600', 'read', 'searched']);
    expect([...r.seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 600 }, (_, d) => d));
    expect(r.withBytes()).toBeGreaterThan(1);
  });

  it('gives the batches that finished before a failure, then the failure', async () => {
    let calls = 0;
    const failing = {
      ...ingestApi,
      async ingestBatch(...args: Parameters<IngestApi['ingestBatch']>) {
        if (++calls > 1) throw new Error('disk gone');
        return ingestApi.ingestBatch(...args);
      },
    };
    const r = recording(false);
    const store = createScanStore({ k: 3 });
    await createScanSession(store, workers(failing), r.stage).start({ kind: 'file-list', files: files() });
    expect(store.getSnapshot().state).toBe('error');
    expect(String(r.failure())).toContain('disk gone');
    expect(r.seen.length).toBeGreaterThan(0);
    expect(r.seen.length).toBeLessThan(600);
    expect(r.order).toEqual(['begin 600']);
  });

  it('streams batches pushed in the same turn as the failure before the failure', async () => {
    const batch = (d: number) => ({ ids: [d] }) as unknown as ScanBatch;
    const got: number[] = [];
    const reading = (async () => {
      for await (const b of streamed(async (push) => {
        await new Promise((r) => setTimeout(r, 1));
        push(batch(0));
        push(batch(1));
        throw new Error('stopped');
      })) got.push(...b.ids);
    })();
    await expect(reading).rejects.toThrow('stopped');
    expect(got).toEqual([0, 1]);
  });
});
