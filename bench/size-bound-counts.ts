/**
 * Counts, not times: how many candidate pairs the size bound (verify-candidates.ts, `sizesAllow`)
 * decides without measuring, at the app's default k for the corpus size, and that the verified pairs
 * and CSV bytes are the same as without the bound. Corpora: the ingest benchmark's real text
 * (`buildIngestTextCorpus`: runs of lines from linux-doc and npm prose, every tenth file a near copy),
 * or with `real` the quality benchmark's real corpus (`buildRealCorpus`: whole documents, planted copies).
 * The whole pipeline runs in this thread (comlink over MessageChannels, as the unit tests do).
 * Not part of `npm run bench`. Usage: `npx tsx bench/size-bound-counts.ts [files [meanBytes] | real]`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIngestTextCorpus, buildRealCorpus } from './real-corpus.ts';
import { createScanSession } from '../src/scan/scan-session.ts';
import { createScanStore } from '../src/scan/scan-store.ts';
import { decideNearDuplicates, emptyKnown } from '../src/scan/near-duplicate-search.ts';
import { plainScan, type ShownCorpus } from '../src/scan/scan-run.ts';
import { pairsCsvBytes } from '../src/core/export/pairs-csv-bytes.ts';
import { createWorkerBridge } from '../src/workers/worker-bridge.ts';
import { createWorkerPool } from '../src/workers/worker-pool.ts';
import { ingestApi, type IngestApi } from '../src/workers/ingest-api.ts';
import { indexApi, type IndexApi } from '../src/workers/index-api.ts';
import { BROWSER_READ_LIMIT, type ScanWorkers } from '../src/workers/scan-workers.ts';
import { channelSpawner } from '../tests/unit/workers/comlink-channel.ts';

const real = process.argv[2] === 'real';
const files = real ? 0 : Number(process.argv[2] ?? 20_000);
const meanBytes = Number(process.argv[3] ?? 10_000);
const THRESHOLDS = [0.5, 0.7, 0.8, 0.9];

const workers: ScanWorkers = {
  ingest: createWorkerPool<IngestApi>(channelSpawner(ingestApi).spawn, 1),
  index: createWorkerBridge<IndexApi>(channelSpawner(indexApi).spawn),
  readLimit: BROWSER_READ_LIMIT,
};
const dir = mkdtempSync(join(tmpdir(), 'simsift-size-bound-'));
try {
  let root = join(dir, 'corpus');
  let described: string;
  if (real) {
    const manifest = buildRealCorpus(root);
    root = join(root, 'docs');
    described = `the real corpus (${manifest.documents.length} documents)`;
  } else {
    const info = buildIngestTextCorpus(root, files, meanBytes, 1);
    described = `${info.files} files (${(info.bytes / 1e6).toFixed(0)} MB, ${info.near} near copies)`;
  }
  const list: File[] = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const f = new File([readFileSync(path)], entry.name);
    Object.defineProperty(f, 'webkitRelativePath', { value: `corpus/${path.slice(root.length + 1)}` });
    list.push(f);
  }
  const store = createScanStore();
  let own: ShownCorpus | null = null;
  await createScanSession(store, workers, async (scan) => {
    const o = await plainScan(scan);
    return (own = { ...o, candidates: { ...o.candidates, jaccard: o.candidates.jaccard.slice() } });
  }).start({ kind: 'file-list', files: list });
  const scanned = own as ShownCorpus | null;
  if (!scanned) throw new Error(store.getSnapshot().error ?? 'the scan gave no result');
  const { corpus, candidates } = scanned;
  const signal = new AbortController().signal;
  const paths = scanned.result.docs.paths;
  const kept = corpus.keptSets?.filter((s) => s !== undefined).length ?? 0;
  // Every candidate's exact Jaccard, without the bound (no kept sets: each pair measured from its files).
  const { keptSets: _, ...bare } = corpus;
  const exact = { ...candidates, jaccard: new Float64Array(candidates.pairs.count).fill(Number.NaN) };
  const all = await decideNearDuplicates(workers, signal, { ...bare, known: emptyKnown() }, exact, { similarityThreshold: 0.01, grouping: 'reference' });
  console.log(
    `${described}, k=${candidates.k}: ` +
      `${candidates.pairs.count} candidates, ${all.verification.measured} measured without the bound; feature sets kept for ${kept} documents`,
  );
  for (const t of THRESHOLDS) {
    const bounded = { ...candidates, jaccard: new Float64Array(candidates.pairs.count).fill(Number.NaN) };
    const withBound = await decideNearDuplicates(workers, signal, { ...corpus, known: emptyKnown() }, bounded, { similarityThreshold: t, grouping: 'reference' });
    const without = await decideNearDuplicates(workers, signal, { ...bare, known: emptyKnown() }, { ...exact, jaccard: exact.jaccard.slice() }, { similarityThreshold: t, grouping: 'reference' });
    const csv = (near: typeof without) => Buffer.concat(pairsCsvBytes(near.relation, paths)).toString('utf8');
    const v = withBound.verification;
    const same = csv(withBound) === csv(without) && withBound.verified.count === without.verified.count;
    console.log(
      `  threshold ${t}: ${v.sizeRejected} of ${v.candidates} candidates rejected by size (${((100 * v.sizeRejected) / v.candidates).toFixed(1)}%), ` +
        `${v.measured} measured; ${withBound.verified.count} verified pairs, ${same ? 'pairs and CSV bytes equal' : 'DIFFERENT'} without the bound`,
    );
    if (!same) process.exitCode = 1;
  }
} finally {
  workers.ingest.terminate();
  workers.index.terminate();
  rmSync(dir, { recursive: true, force: true });
}
