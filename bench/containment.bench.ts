/**
 * `npm run bench -- containment [--bases 1500] [--excerpts 300] [--appended 150]`: recall and precision
 * of the contained-pairs search on real text (bench/containment-corpus.ts), against the exact truth:
 * every pair whose feature sets have |A ∩ B| / |A| >= 0.9 and Jaccard < 0.8, counted over all features
 * through a full inverted index (no sampling, no cap). Also prints the search's candidates and time.
 */
import { createFingerprinter } from '../src/core/simhash/fingerprinter.ts';
import { DEFAULT_SETTINGS } from '../src/core/simhash/settings.ts';
import { DEFAULT_CONTAINMENT } from '../src/core/groups/contained-pairs.ts';
import { findContainedPairs } from '../src/core/groups/containment-candidates.ts';
import { buildContainmentCorpus } from './containment-corpus.ts';
import { benchOptions, JSON_OPTION, numberOption, report } from './harness.ts';

const USAGE = 'usage: npm run bench -- containment [--bases 1500] [--excerpts 300] [--appended 150] [--json]';
const OPTIONS = { bases: { type: 'string' }, excerpts: { type: 'string' }, appended: { type: 'string' }, ...JSON_OPTION } as const;

/** Every truly contained pair "inner outer", by exact counting over all features. */
export function exactContainedPairs(sets: readonly Uint32Array[], threshold: number, jaccardThreshold: number): Set<string> {
  const postings = new Map<number, number[]>();
  sets.forEach((set, d) => {
    for (const key of set) {
      let list = postings.get(key);
      if (!list) postings.set(key, (list = []));
      list.push(d);
    }
  });
  const truth = new Set<string>();
  const shared = new Uint32Array(sets.length);
  for (let a = 0; a < sets.length; a++) {
    const sizeA = sets[a].length;
    if (sizeA === 0) continue;
    shared.fill(0);
    for (const key of sets[a]) for (const b of postings.get(key)!) shared[b]++;
    for (let b = 0; b < sets.length; b++) {
      if (b === a || shared[b] === 0) continue;
      const sizeB = sets[b].length;
      if (sizeB < sizeA || (sizeB === sizeA && b < a)) continue;
      const c = shared[b];
      if (c / sizeA >= threshold - 1e-9 && c / (sizeA + sizeB - c) < jaccardThreshold - 1e-9) truth.add(`${a} ${b}`);
    }
  }
  return truth;
}

export async function main(args: string[]): Promise<void> {
  const values = benchOptions(args, OPTIONS, USAGE);
  if (!values) return;
  const docs = buildContainmentCorpus(
    numberOption(values.bases, 1500, 'bases'),
    numberOption(values.excerpts, 300, 'excerpts'),
    numberOption(values.appended, 150, 'appended'),
  );
  const fp = createFingerprinter({ ...DEFAULT_SETTINGS, weights: 'binary' });
  const sets = docs.map((d) => fp.featureSet(d.text));
  const t0 = performance.now();
  const { pairs, stats } = findContainedPairs(sets, DEFAULT_CONTAINMENT);
  const searchMs = performance.now() - t0;
  const truth = exactContainedPairs(sets, DEFAULT_CONTAINMENT.threshold, DEFAULT_CONTAINMENT.jaccardThreshold);
  let hits = 0;
  for (let i = 0; i < pairs.count; i++) if (truth.has(`${pairs.inner[i]} ${pairs.outer[i]}`)) hits++;
  const planted = [...truth].filter((p) => {
    const [a, b] = p.split(' ').map(Number);
    return docs[a].kind !== 'base' || docs[b].kind !== 'base';
  });
  const plantedFound = planted.filter((p) => {
    for (let i = 0; i < pairs.count; i++) if (`${pairs.inner[i]} ${pairs.outer[i]}` === p) return true;
    return false;
  }).length;
  report('containment', {
    documents: docs.length,
    excerpts: docs.filter((d) => d.kind === 'excerpt').length,
    appended: docs.filter((d) => d.kind === 'appended').length,
    truePairs: truth.size,
    truePairsWithMadeDocument: planted.length,
    found: pairs.count,
    recall: Number((hits / Math.max(1, truth.size)).toFixed(4)),
    precision: Number((hits / Math.max(1, pairs.count)).toFixed(4)),
    madeDocumentRecall: Number((plantedFound / Math.max(1, planted.length)).toFixed(4)),
    candidates: stats.candidates,
    passages: stats.passages,
    searchMs: Math.round(searchMs),
  }, values);
}
