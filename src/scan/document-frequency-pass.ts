/**
 * The TF-IDF first pass of a scan: every file is read once more before fingerprinting, the ingest
 * workers count document frequencies of its features, the index worker merges the per-worker tables,
 * and every ingest worker receives the merged table for the fingerprint pass (TF-IDF weights need
 * the whole corpus' frequencies before the first fingerprint).
 */
import { transfer } from 'comlink';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import type { IngestItem } from '../workers/ingest-protocol.ts';
import { MAX_DOCUMENT_BYTES } from '../core/documents/document-status.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import { readUpTo } from './read-file-bytes.ts';
import type { ScanDocs } from './scan-result.ts';

const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_FILES = 256;
const READ_CONCURRENCY = 32;

let passes = 0;

/**
 * Counts document frequencies over `docs.files` and installs them in every ingest worker. Files are
 * read here as in the fingerprint pass (small ones on the main thread, asynchronously; large ones by
 * a worker). `onBytes` hears the bytes counted so far. Resolves with the number of documents counted.
 */
export async function installDocumentFrequencies(
  workers: ScanWorkers,
  signal: AbortSignal,
  docs: Pick<ScanDocs, 'count' | 'files' | 'paths'>,
  settings: SimHashSettings,
  onBytes: (bytes: number) => void,
): Promise<number> {
  const inFlight = new Set<Promise<void>>();
  const maxInFlight = workers.ingest.size * 2;
  let failure: unknown = null;
  let counted = 0;
  const send = (items: IngestItem[], buffers: ArrayBuffer[]) => {
    const task = workers.ingest
      .run(signal, (api) => api.countFrequencies(transfer(items, buffers), settings))
      .then((bytes) => onBytes((counted += bytes)))
      .catch((error: unknown) => void (failure ??= error))
      .finally(() => inFlight.delete(task));
    inFlight.add(task);
  };
  let items: IngestItem[] = [];
  let buffers: ArrayBuffer[] = [];
  let bytes = 0;
  const flush = () => {
    if (items.length > 0) send(items, buffers);
    items = [];
    buffers = [];
    bytes = 0;
  };
  let next = 0;
  const lane = async () => {
    while (next < docs.count && failure === null) {
      const d = next++;
      const read = await readUpTo(docs.files[d], workers.readLimit);
      signal.throwIfAborted();
      if (read.kind === 'error') continue; // the fingerprint pass reports it
      if (read.kind === 'large' && docs.files[d].size > MAX_DOCUMENT_BYTES) continue; // skipped as too large
      if (read.kind === 'large') send([{ name: docs.paths[d], file: docs.files[d] }], []);
      else {
        items.push({ name: docs.paths[d], bytes: read.bytes });
        buffers.push(read.bytes.buffer as ArrayBuffer);
        bytes += read.bytes.byteLength;
        if (bytes >= BATCH_BYTES || items.length >= BATCH_FILES) flush();
      }
      while (inFlight.size >= maxInFlight) await Promise.race(inFlight);
    }
  };
  await Promise.all(Array.from({ length: READ_CONCURRENCY }, lane));
  flush();
  while (inFlight.size > 0) await Promise.race(inFlight);
  if (failure !== null) throw failure;
  const parts = await workers.ingest.broadcast(signal, (api) => api.collectFrequencies());
  const df = await workers.index.call(signal, (api) => api.mergeFrequencies(parts));
  const token = `pass-${++passes}`;
  await workers.ingest.broadcast(signal, (api) => api.setDocumentFrequencies(df, token));
  return df.documents;
}
