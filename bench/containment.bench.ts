/**
 * `npm run bench -- containment [--bases 1500] [--excerpts 300] [--appended 150]`: recall and precision
 * of the contained-pairs search on real text (bench/containment-corpus.ts), against the exact truth:
 * every pair whose feature sets have |A ∩ B| / |A| >= 0.9 and Jaccard < 0.8, counted over all features
 * through a full inverted index (no sampling, no cap). Also prints the search's candidates and time.
 */
import { createFingerprinter } from '../src/core/simhash/fingerprinter.ts';
import { DEFAULT_SETTINGS } from '../src/core/simhash/settings.ts';
import { DEFAULT_CONTAINMENT, findContainedPairs } from '../src/core/groups/contained-pairs.ts';
import { buildContainmentCorpus } from './containment-corpus.ts';

function flag(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
}

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
  const docs = buildContainmentCorpus(flag(args, '--bases', 1500), flag(args, '--excerpts', 300), flag(args, '--appended', 150));
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
  console.log(`documents: ${docs.length} (${docs.filter((d) => d.kind === 'excerpt').length} excerpts, ${docs.filter((d) => d.kind === 'appended').length} appended)`);
  console.log(`true contained pairs: ${truth.size} (${planted.length} involving a made document)`);
  console.log(`found: ${pairs.count}; recall ${(hits / Math.max(1, truth.size)).toFixed(4)}; precision ${(hits / Math.max(1, pairs.count)).toFixed(4)}; made-document recall ${(plantedFound / Math.max(1, planted.length)).toFixed(4)}`);
  console.log(`candidates verified: ${stats.candidates}; passages ${stats.passages}, boilerplate ${stats.boilerplatePassages}; search ${searchMs.toFixed(0)} ms`);
}
