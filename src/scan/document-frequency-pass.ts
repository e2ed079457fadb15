/**
 * The TF-IDF first pass of a scan: every file is read once more before fingerprinting, the ingest
 * workers count document frequencies of its features, the index worker merges the per-worker tables,
 * and every ingest worker receives the merged table for the fingerprint pass (TF-IDF weights need
 * the whole corpus' frequencies before the first fingerprint).
 */
import { transfer } from 'comlink';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import { feedFiles } from './batch-feeder.ts';
import { feedIdBatches } from './handle-source.ts';
import { docFile, type ScanDocs } from './scan-result.ts';

let passes = 0;

/**
 * Counts document frequencies over `docs.files` and installs them in every ingest worker. Files are
 * fed as in the fingerprint pass (batch-feeder.ts), or, with `handleToken` (a scan read through
 * directory handles, handle-source.ts), named by path for the workers to read. `onBytes` hears the
 * bytes counted so far. Resolves with the number of documents counted.
 */
export async function installDocumentFrequencies(
  workers: ScanWorkers,
  signal: AbortSignal,
  docs: Pick<ScanDocs, 'count' | 'files' | 'paths' | 'ranges'>,
  settings: SimHashSettings,
  onBytes: (bytes: number) => void,
  handleToken: string | null = null,
): Promise<number> {
  let counted = 0;
  if (handleToken !== null) {
    await feedIdBatches(
      docs.count,
      async (ids) => {
        const paths = ids.map((d) => docs.paths[d]!);
        counted += await workers.ingest.run(signal, (api) => api.countFrequenciesOfPaths(handleToken, paths, settings));
        onBytes(counted);
      },
      { batchFiles: 256, maxInFlight: workers.ingest.size * 2, signal },
    );
  } else {
    await feedFiles(
      docs.files,
      docs.paths,
      {
        send: async ({ items, buffers }) => {
          counted += await workers.ingest.run(signal, (api) => api.countFrequencies(transfer(items, buffers), settings));
          onBytes(counted);
        },
        // The fingerprint pass reports both.
        unreadable: () => undefined,
        tooLarge: () => undefined,
      },
      { readLimit: workers.readLimit, maxInFlight: workers.ingest.size * 2, signal, ...(docs.ranges ? { fileAt: (d: number) => docFile(docs, d) } : {}) },
    );
  }
  const parts = await workers.ingest.broadcast(signal, (api) => api.collectFrequencies());
  const df = await workers.index.call(signal, (api) => api.mergeFrequencies(parts));
  const token = `pass-${++passes}`;
  await workers.ingest.broadcast(signal, (api) => api.setDocumentFrequencies(df, token));
  return df.documents;
}
