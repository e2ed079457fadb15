/**
 * A scan's workers for unit tests: the real ingest and index APIs behind comlink over MessageChannels
 * (comlink-channel.ts), and files as a folder input gives them.
 */
import { createWorkerBridge } from '../../../src/workers/worker-bridge.ts';
import { createWorkerPool } from '../../../src/workers/worker-pool.ts';
import { ingestApi, type IngestApi } from '../../../src/workers/ingest-api.ts';
import { indexApi, type IndexApi } from '../../../src/workers/index-api.ts';
import { BROWSER_READ_LIMIT, type ScanWorkers } from '../../../src/workers/scan-workers.ts';
import { channelSpawner } from '../workers/comlink-channel.ts';

/** Two ingest "workers" exposing `apiForIngest` (the real ingest API unless given) and one index worker. */
export function inThreadWorkers(apiForIngest: object = ingestApi): ScanWorkers {
  return {
    ingest: createWorkerPool<IngestApi>(channelSpawner(apiForIngest).spawn, 2),
    index: createWorkerBridge<IndexApi>(channelSpawner(indexApi).spawn),
    readLimit: BROWSER_READ_LIMIT,
  };
}

/** A File with `webkitRelativePath`, as a folder input gives it. */
export function inFolder(path: string, content: BlobPart): File {
  const f = new File([content], path.split('/').pop()!);
  Object.defineProperty(f, 'webkitRelativePath', { value: path });
  return f;
}
