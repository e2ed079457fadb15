/**
 * Counts (never times) the work the containment search adds to a scan of a folder: passages per
 * document, postings, postings walked, sample lists merged, candidates, exact checks (feature-set
 * decodes and the features intersected), and the bytes each stage holds. The ingest API and the
 * candidate stage are the scan's own (in this process). Usage:
 *   npx tsx bench/containment-work.ts DIR [--limit N]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingestApi } from '../src/workers/ingest-api.ts';
import { DEFAULT_SETTINGS } from '../src/core/simhash/settings.ts';
import { containmentCandidates, ContainedBuffer, DEFAULT_CONTAINMENT } from '../src/core/groups/contained-pairs.ts';
import { decodeFeatureSet } from '../src/core/groups/feature-set-codec.ts';
import { intersectionSize } from '../src/core/simhash/simhash.ts';
import { concatSets } from '../src/scan/near-duplicate-search.ts';
import type { PackedSets } from '../src/workers/ingest-protocol.ts';

const dir = process.argv[2]!;
const limitAt = process.argv.indexOf('--limit');
const limit = limitAt > 0 ? Number(process.argv[limitAt + 1]) : Infinity;

function walk(d: string, out: string[]): string[] {
  for (const e of readdirSync(d, { withFileTypes: true }).sort((x, y) => (x.name < y.name ? -1 : 1))) {
    if (e.isDirectory()) walk(join(d, e.name), out);
    else if (out.length < limit) out.push(join(d, e.name));
  }
  return out;
}

const paths = walk(dir, []);
const passageParts: PackedSets[] = [];
const kept: Uint32Array[] = new Array(paths.length);
let textBytes = 0;
let keptBytes = 0;
for (let from = 0; from < paths.length; from += 256) {
  const batch = paths.slice(from, from + 256);
  const items = batch.map((p) => ({ name: p, bytes: new Uint8Array(readFileSync(p)) }));
  items.forEach((i) => (textBytes += i.bytes.byteLength));
  const r = await ingestApi.ingestBatch(items, DEFAULT_SETTINGS, { keepSets: true, passages: true });
  const p = r.passages!;
  passageParts.push({ docs: p.docs.map((i) => i + from), offsets: p.offsets, keys: p.keys });
  const k = r.kept!;
  for (let j = 0; j < k.docs.length; j++) {
    kept[from + k.docs[j]!] = k.words.slice(k.offsets[j]!, k.offsets[j + 1]!);
    keptBytes += 4 * (k.offsets[j + 1]! - k.offsets[j]!);
  }
}
const passages = concatSets(passageParts);
const n = paths.length;
const sizes = new Uint32Array(n);
let features = 0;
for (let d = 0; d < n; d++) if (kept[d]) features += sizes[d] = decodeFeatureSet(kept[d]!).length;
const keys = passages.keys.length;
const { candidates, stats } = containmentCandidates(n, passages, DEFAULT_CONTAINMENT);

// The measuring stage as contained-search.ts chunks it (256 documents or 20,000 pairs a chunk): each
// chunk decodes every document it names once.
let decodes = 0;
let intersected = 0;
// Encoded feature sets each chunk copies to a worker: all chunks at once, or the largest few in flight.
let chunkBytes = 0;
let largestChunk = 0;
let nearDuplicates = 0;
let nearFeatures = 0;
const found = new ContainedBuffer();
const local = new Set<number>();
let pairsInChunk = 0;
const close = () => {
  decodes += local.size;
  let bytes = 0;
  for (const d of local) bytes += kept[d]!.byteLength;
  chunkBytes += bytes;
  largestChunk = Math.max(largestChunk, bytes);
  local.clear();
  pairsInChunk = 0;
};
for (let p = 0; p < candidates.count; p++) {
  const a = candidates.inner[p]!;
  const b = candidates.outer[p]!;
  if (local.size >= 256 || pairsInChunk >= 20_000) close();
  local.add(a);
  local.add(b);
  pairsInChunk++;
  const A = decodeFeatureSet(kept[a]!);
  const B = decodeFeatureSet(kept[b]!);
  intersected += A.length + B.length;
  const common = intersectionSize(A, B);
  const jaccard = common / (A.length + B.length - common);
  if (jaccard >= DEFAULT_CONTAINMENT.jaccardThreshold - 1e-9) {
    nearDuplicates++;
    nearFeatures += A.length + B.length;
  }
  found.judge(a, b, common, A.length, B.length, DEFAULT_CONTAINMENT);
}
close();
const pairs = found.pairs();
const mb = (x: number) => `${(x / 1e6).toFixed(1)} MB`;
console.log(
  [
    `documents ${n}, text ${mb(textBytes)}, distinct features ${features} (${(features / n).toFixed(0)} a document)`,
    `kept feature sets (Rice-coded, no containment needed) ${mb(keptBytes)}`,
    `passages: ${keys} keys (${(keys / n).toFixed(1)} a document, ${((100 * keys) / features).toFixed(1)}% of features), ${mb(4 * keys + 8 * passages.docs.length)} packed`,
    `candidate stage: ${stats.passages} distinct passages, ${stats.postings} postings, walked ${stats.walked}, sample lists merged ${stats.compared}, candidates ${stats.candidates}`,
    `candidate stage arrays (entries f64, runBounds, docOf, docRuns): about ${mb(8 * stats.postings + 8 * stats.postings + 4 * stats.postings + 4 * stats.postings)} at most`,
    `exact checks: ${candidates.count} pairs, ${decodes} feature-set decodes in chunks, ${intersected} features intersected; contained ${pairs.count}`,
    `  encoded sets copied to the workers: ${mb(chunkBytes)} over all chunks, the largest chunk ${mb(largestChunk)}`,
    `  of them near-duplicates (Jaccard >= ${DEFAULT_CONTAINMENT.jaccardThreshold}, never contained): ${nearDuplicates} pairs, ${nearFeatures} features intersected`,
  ].join('\n'),
);
