/**
 * Counts (never times) the work the containment search adds to a scan of a folder: passages per
 * document, postings, postings walked, sample lists merged, candidates, exact checks (feature-set
 * decodes, the features intersected and the keys the merges pass over), and the bytes each stage holds. The ingest API, the candidate
 * stage, the counts taken from the near-duplicate stage's Jaccards and the measuring order are the
 * scan's own (in this process). Usage:
 *   npx tsx bench/containment-work.ts DIR [--limit N] [--k K] [--workers W]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ingestApi } from '../src/workers/ingest-api.ts';
import { DEFAULT_SETTINGS } from '../src/core/simhash/settings.ts';
import { ContainedBuffer, countIsBelow, DEFAULT_CONTAINMENT, neededCommon } from '../src/core/groups/contained-pairs.ts';
import { containmentCandidates } from '../src/core/groups/containment-candidates.ts';
import { intersectionAtLeast } from '../src/core/simhash/simhash.ts';
import { decodeFeatureSet } from '../src/core/groups/feature-set-codec.ts';
import { chunkContainmentCounts } from '../src/core/groups/set-jaccard.ts';
import { jaccardSorted, sizesAllow } from '../src/core/groups/jaccard.ts';
import { searchCandidates } from '../src/core/index/candidate-search.ts';
import { knownCounts, measuringOrder, noKnownContainment } from '../src/scan/containment-counts.ts';
import { concatSets, type PackedSets } from '../src/core/groups/packed-sets.ts';
import { containmentChunk, measuringLimits } from '../src/scan/contained-search.ts';

const dir = process.argv[2]!;
const limitAt = process.argv.indexOf('--limit');
const limit = limitAt > 0 ? Number(process.argv[limitAt + 1]) : Infinity;
const kAt = process.argv.indexOf('--k');
// The k simsift scan takes by default at 20,000 files.
const k = kAt > 0 ? Number(process.argv[kAt + 1]) : 16;
const workersAt = process.argv.indexOf('--workers');
// The measuring chunks depend on the ingest workers a scan has (one a core: 2 on the bench machine).
const workers = workersAt > 0 ? Number(process.argv[workersAt + 1]) : 2;

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
const hi = new Uint32Array(paths.length);
const lo = new Uint32Array(paths.length);
let textBytes = 0;
let keptBytes = 0;
for (let from = 0; from < paths.length; from += 256) {
  const batch = paths.slice(from, from + 256);
  const items = batch.map((p) => ({ name: p, bytes: new Uint8Array(readFileSync(p)) }));
  items.forEach((i) => (textBytes += i.bytes.byteLength));
  const r = await ingestApi.ingestBatch(items, DEFAULT_SETTINGS, { keepSets: true, passages: true });
  hi.set(r.hi, from);
  lo.set(r.lo, from);
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
const passageBytes = 4 * keys + 8 * passages.docs.length;
const { candidates, stats } = containmentCandidates(n, passages, DEFAULT_CONTAINMENT, sizes);

// The near-duplicate stage's exact Jaccards (what verification measures: fingerprint candidates within k
// whose sizes allow the threshold); the containment stage takes those pairs' counts from them.
const reps = Uint32Array.from({ length: n }, (_, d) => d);
const near = searchCandidates({ reps, hi, lo, k }).candidates;
const ja: number[] = [];
const jb: number[] = [];
const jj: number[] = [];
for (let p = 0; p < near.count; p++) {
  const a = Math.min(near.a[p]!, near.b[p]!);
  const b = Math.max(near.a[p]!, near.b[p]!);
  if (!kept[a] || !kept[b] || !sizesAllow(sizes[a]!, sizes[b]!, DEFAULT_CONTAINMENT.jaccardThreshold)) continue;
  ja.push(a);
  jb.push(b);
  jj.push(jaccardSorted(decodeFeatureSet(kept[a]!), decodeFeatureSet(kept[b]!)));
}
const byPair = Array.from(ja.keys()).sort((x, y) => ja[x]! - ja[y]! || jb[x]! - jb[y]!);
const jaccards = { a: Uint32Array.from(byPair, (i) => ja[i]!), b: Uint32Array.from(byPair, (i) => jb[i]!), jaccard: Float64Array.from(byPair, (i) => jj[i]!), count: byPair.length };
const counts = new Float64Array(3 * candidates.count);
knownCounts(candidates, noKnownContainment(), jaccards, sizes, counts, DEFAULT_CONTAINMENT.threshold);
const todo: number[] = [];
for (let p = 0; p < candidates.count; p++) if (counts[3 * p + 1] === 0) todo.push(p);
const fromJaccards = candidates.count - todo.length;

// The measuring stage as contained-search.ts runs it: chunks closed at measuringLimits in
// measuringOrder, each measured as the ingest workers do (chunkContainmentCounts: every set the chunk
// names decoded once, in the kernel's memory).
let decodes = 0;
let decodedKeys = 0;
let intersected = 0;
// Encoded feature sets each chunk copies to a worker: all chunks at once, or the largest few in flight.
let chunkBytes = 0;
let largestChunk = 0;
let notContained = 0;
let notContainedFeatures = 0;
let nearDuplicates = 0;
let nearFeatures = 0;
const wholeMerges = { keys: 0 };
const stoppedMerges = { keys: 0 };
let stoppedEarly = 0;
const order = measuringOrder(candidates, todo, n);
const limits = measuringLimits(order.length, workers, sizes);
let chunks = 0;
for (let from = 0; from < order.length; ) {
  const { ids, pairs, index, next } = containmentChunk(candidates, order, from, limits, chunks);
  chunks++;
  from = next;
  const offsets = new Uint32Array(ids.length + 1);
  ids.forEach((d, i) => (offsets[i + 1] = offsets[i]! + kept[d]!.length));
  const words = new Uint32Array(offsets[ids.length]!);
  ids.forEach((d, i) => words.set(kept[d]!, offsets[i]));
  decodes += ids.length;
  for (const d of ids) decodedKeys += sizes[d]!;
  chunkBytes += words.byteLength;
  largestChunk = Math.max(largestChunk, words.byteLength);
  const measured = chunkContainmentCounts(ids.length, { docs: Uint32Array.from(ids.keys()), offsets, words }, [], pairs, DEFAULT_CONTAINMENT.threshold);
  // The keys each merge passes over, counted by core's merge (the kernel's twin): a whole merge, and
  // one that stops as soon as the threshold cannot be reached (what the kernel does).
  const sets = ids.map((d) => decodeFeatureSet(kept[d]!));
  index.forEach((p, i) => {
    const [common, sizeA, sizeB] = measured.subarray(3 * i, 3 * i + 3) as unknown as [number, number, number];
    counts.set([common, sizeA, sizeB], 3 * p);
    intersected += sizeA + sizeB;
    const x = sets[pairs.a[i]!]!;
    const y = sets[pairs.b[i]!]!;
    const exact = intersectionAtLeast(x, y, 0, wholeMerges);
    intersectionAtLeast(x, y, neededCommon(DEFAULT_CONTAINMENT.threshold, Math.min(sizeA, sizeB)), stoppedMerges);
    if (countIsBelow(common)) stoppedEarly++;
    if (exact / Math.min(sizeA, sizeB) < DEFAULT_CONTAINMENT.threshold - 1e-9) {
      notContained++;
      notContainedFeatures += sizeA + sizeB;
    }
    if (exact / (sizeA + sizeB - exact) >= DEFAULT_CONTAINMENT.jaccardThreshold - 1e-9) {
      nearDuplicates++;
      nearFeatures += sizeA + sizeB;
    }
  });
}
const found = new ContainedBuffer();
for (let p = 0; p < candidates.count; p++) found.judge(candidates.inner[p]!, candidates.outer[p]!, counts[3 * p]!, counts[3 * p + 1]!, counts[3 * p + 2]!, DEFAULT_CONTAINMENT);
const pairs = found.pairs();
const mb = (x: number) => `${(x / 1e6).toFixed(1)} MB`;
console.log(
  [
    `documents ${n}, text ${mb(textBytes)}, distinct features ${features} (${(features / n).toFixed(0)} a document)`,
    `kept feature sets (Elias-Fano coded, no containment needed) ${mb(keptBytes)}`,
    `passages: ${keys} keys (${(keys / n).toFixed(1)} a document, ${((100 * keys) / features).toFixed(1)}% of features), ${mb(passageBytes)} packed; collected in one pass over the ${features} features into the batch's packed keys (two passes and an array a document before)`,
    `candidate stage: ${stats.passages} distinct passages, ${stats.postings} postings, walked ${stats.walked}, sample lists merged ${stats.compared} (${stats.merged} entries stepped), candidates ${stats.candidates}`,
    `counts from the near-duplicate stage's Jaccards (k ${k}: ${jaccards.count} measured there): ${fromJaccards} candidates`,
    `exact checks: ${todo.length} pairs, ${decodes} feature-set decodes in ${chunks} chunks (${workers} workers), ${intersected} features intersected; contained ${pairs.count}`,
    `  keys the merges pass over: ${wholeMerges.keys} to the end of either set; ${stoppedMerges.keys} stopping as soon as the threshold cannot be reached (${stoppedEarly} pairs "below")`,
    `  encoded sets copied to the workers: ${mb(chunkBytes)} over all chunks, the largest chunk ${mb(largestChunk)}`,
    `  keys decoded ${decodedKeys}, in the kernel's memory (measureContainment decoded them into fresh arrays, ${mb(4 * decodedKeys)}, before)`,
    `  of them not contained: ${notContained} pairs, ${notContainedFeatures} features intersected`,
    `  of them near-duplicates (Jaccard >= ${DEFAULT_CONTAINMENT.jaccardThreshold}, never contained): ${nearDuplicates} pairs, ${nearFeatures} features intersected`,
  ].join('\n'),
);
