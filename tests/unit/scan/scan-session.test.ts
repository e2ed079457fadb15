import { describe, expect, it } from 'vitest';
import { createScanSession } from '../../../src/scan/scan-session.ts';
import { createScanStore, type ScanState } from '../../../src/scan/scan-store.ts';
import { createWorkerBridge } from '../../../src/workers/worker-bridge.ts';
import { createWorkerPool } from '../../../src/workers/worker-pool.ts';
import { ingestApi, type IngestApi } from '../../../src/workers/ingest-api.ts';
import { indexApi, type IndexApi } from '../../../src/workers/index-api.ts';
import { DocStatus } from '../../../src/workers/ingest-protocol.ts';
import type { ScanWorkers } from '../../../src/workers/scan-workers.ts';
import { channelSpawner } from '../workers/comlink-channel.ts';

function workers(apiForIngest: object = ingestApi): ScanWorkers {
  return {
    ingest: createWorkerPool<IngestApi>(channelSpawner(apiForIngest).spawn, 2),
    index: createWorkerBridge<IndexApi>(channelSpawner(indexApi).spawn),
  };
}

function inFolder(path: string, content: BlobPart): File {
  const f = new File([content], path.split('/').pop()!);
  Object.defineProperty(f, 'webkitRelativePath', { value: path });
  return f;
}

/** A 120-word text, made unique by `seed`. */
function text(seed: number): string {
  return Array.from({ length: 120 }, (_, i) => `w${(seed * 7919 + i * 104729) % 100003}`).join(' ');
}

describe('scan session', () => {
  it('runs a scan end to end: exact copies grouped, a near-duplicate pair found, skips listed', async () => {
    const base = text(1);
    const near = base.replace('w', 'changed w');
    const files = [
      inFolder('c/a.txt', base),
      inFolder('c/x/a.txt', base),
      inFolder('c/near.txt', near),
      inFolder('c/other.txt', text(2)),
      inFolder('c/empty.txt', ''),
      inFolder('c/bin.txt', new Uint8Array([1, 0, 2, 0])),
      inFolder('c/.git/config', 'x'),
    ];
    const store = createScanStore({ k: 6 });
    const states: ScanState[] = [];
    store.subscribe(() => {
      const s = store.getSnapshot().state;
      if (states[states.length - 1] !== s) states.push(s);
    });
    await createScanSession(store, workers()).start({ kind: 'file-list', files });
    const snap = store.getSnapshot();
    expect(states).toEqual(['scanning', 'done']);
    const r = snap.result!;
    expect(r.partial).toBe(false);
    expect(r.docs.count).toBe(6);
    const id = (p: string) => r.docs.paths.indexOf(p);
    expect(r.docs.status[id('c/a.txt')]).toBe(DocStatus.ok);
    expect(r.exactGroups.count).toBe(1);
    expect(Array.from(r.exactGroups.members).map((d) => r.docs.paths[d]).sort()).toEqual(['c/a.txt', 'c/x/a.txt']);
    const pairs = Array.from({ length: r.pairs.count }, (_, p) => [r.docs.paths[r.pairs.a[p]], r.docs.paths[r.pairs.b[p]]].sort().join(' ~ '));
    const rep = r.docs.paths[r.representative[id('c/a.txt')]];
    expect(pairs).toEqual([[rep, 'c/near.txt'].sort().join(' ~ ')]);
    expect(r.nearGroups.count).toBe(1);
    expect(r.skipped.map((s) => `${s.path}:${s.reason}`).sort()).toEqual(['c/.git/:hidden', 'c/bin.txt:binary', 'c/empty.txt:empty']);
    expect(snap.progress).toMatchObject({ filesDone: 6, filesTotal: 6, bytesTotal: r.docs.sizes.reduce((a, b) => a + b, 0) });
  });

  it('cancels at once, keeps what finished, and can start again right away', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    // The real API, but every batch after the first waits until the test lets it go.
    const slowIngest = {
      async ingestBatch(...args: Parameters<IngestApi['ingestBatch']>) {
        if (++calls > 1) await gate;
        return ingestApi.ingestBatch(...args);
      },
    };
    const files = Array.from({ length: 3000 }, (_, i) => inFolder(`c/${i}.txt`, text(i).repeat(2)));
    const store = createScanStore({ k: 3 });
    const session = createScanSession(store, workers(slowIngest));
    const running = session.start({ kind: 'file-list', files });
    while (!(store.getSnapshot().progress?.filesDone ?? 0)) await new Promise((r) => setTimeout(r, 5));
    session.cancel();
    expect(store.getSnapshot().state).toBe('cancelled');
    await running;
    release();
    const partial = store.getSnapshot().result!;
    expect(partial.partial).toBe(true);
    const done = Array.from(partial.docs.status).filter((s) => s === DocStatus.ok).length;
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(3000);

    await session.start({ kind: 'file-list', files: files.slice(0, 10) });
    expect(store.getSnapshot().state).toBe('done');
    expect(store.getSnapshot().result!.docs.count).toBe(10);
  });
});
