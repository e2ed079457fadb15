/**
 * `npm run bench -- quality [--seed N] [--scale F] [--k-min K] [--k-max K] [--weights binary,tf,tfidf]`: detection quality of the
 * real pipeline (fingerprinter, permuted-table all-pairs, exact verification, short-document join)
 * against brute-force ground truth (exact Jaccard of word 3-shingle sets >= 0.8) on a generated corpus.
 */
import { DEFAULT_CORPUS_OPTIONS, generateCorpus, type CorpusDocument } from './quality/corpus.ts';
import { groundTruth, shingleSets } from './quality/ground-truth.ts';
import { createFingerprinter } from '../src/core/simhash/fingerprinter.ts';
import { createDocumentFrequencyCounter } from '../src/core/simhash/document-frequencies.ts';
import type { WeightScheme } from '../src/core/simhash/settings.ts';
import { fingerprintCandidates, findNearDuplicates, type NearDuplicateInput } from '../src/core/groups/near-duplicates.ts';
import { referenceGroups } from '../src/core/groups/reference-groups.ts';
import { connectedComponents, detectChaining } from '../src/core/groups/components.ts';
import { DEFAULT_K, DEFAULT_SIMILARITY_THRESHOLD, SHORT_DOCUMENT_WORDS } from '../src/core/quality/defaults.ts';

const NEAR_DUPLICATE = 0.8;

interface Scores {
  predicted: number;
  truePositives: number;
  precision: number;
  recall: number;
  f1: number;
  recallOnePercent: number;
  recallShort: number;
}

function flag(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(args[i + 1]);
  if (!Number.isFinite(v)) throw new Error(`${name} needs a number`);
  return v;
}

const ms = (t0: number): string => `${(performance.now() - t0).toFixed(0)} ms`;
const f3 = (x: number): string => (Number.isNaN(x) ? '  -  ' : x.toFixed(3));

export async function main(args: string[]): Promise<void> {
  const seed = flag(args, '--seed', DEFAULT_CORPUS_OPTIONS.seed);
  const scale = flag(args, '--scale', 1);
  const kMin = flag(args, '--k-min', 3);
  const kMax = flag(args, '--k-max', 14);
  const s = (x: number) => Math.max(1, Math.round(x * scale));

  let t0 = performance.now();
  const docs = generateCorpus({
    seed,
    originals: s(DEFAULT_CORPUS_OPTIONS.originals),
    shorts: s(DEFAULT_CORPUS_OPTIONS.shorts),
    boilerplateFamilies: s(DEFAULT_CORPUS_OPTIONS.boilerplateFamilies),
    boilerplateFamilySize: DEFAULT_CORPUS_OPTIONS.boilerplateFamilySize,
  });
  const n = docs.length;
  const texts = docs.map((d) => d.text);
  const bytes = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
  console.log(`corpus: ${n} documents, ${(bytes / 1e6).toFixed(1)} MB, seed ${seed} (generated in ${ms(t0)})`);
  console.log(`  ${describeCorpus(docs)}`);

  t0 = performance.now();
  const truthSets = shingleSets(texts);
  const truth = groundTruth(truthSets.sets, NEAR_DUPLICATE);
  const shortDocs = truthSets.words.filter((w) => w < SHORT_DOCUMENT_WORDS).length;
  console.log(
    `ground truth: ${truth.positives.size} pairs with Jaccard >= ${NEAR_DUPLICATE} among ${((n * (n - 1)) / 2).toLocaleString('en')} ` +
      `(brute force, ${truth.merged.toLocaleString('en')} merged after the exact size bound; ${ms(t0)}); ${shortDocs} short documents (< ${SHORT_DOCUMENT_WORDS} words)`,
  );

  // The 1%-edited copies: each paired with the original it was made from.
  const onePercent: Array<[number, number]> = [];
  docs.forEach((d, i) => {
    if (/^(delete|insert|replace)-1%$/.test(d.role)) onePercent.push([d.source, i]);
  });
  let truthShort = 0;
  for (const key of truth.positives.keys()) {
    const a = Math.floor(key / n);
    if (truthSets.words[a]! < SHORT_DOCUMENT_WORDS || truthSets.words[key % n]! < SHORT_DOCUMENT_WORDS) truthShort++;
  }

  const score = (a: ArrayLike<number>, b: ArrayLike<number>, count: number): Scores => {
    const predicted = new Set<number>();
    let tp = 0;
    let tpShort = 0;
    for (let i = 0; i < count; i++) {
      const key = a[i]! * n + b[i]!;
      predicted.add(key);
      if (truth.positives.has(key)) {
        tp++;
        if (truthSets.words[a[i]!]! < SHORT_DOCUMENT_WORDS || truthSets.words[b[i]!]! < SHORT_DOCUMENT_WORDS) tpShort++;
      }
    }
    let found1 = 0;
    for (const [x, y] of onePercent) if (predicted.has(Math.min(x, y) * n + Math.max(x, y))) found1++;
    const precision = count === 0 ? 1 : tp / count;
    const recall = tp / truth.positives.size;
    return {
      predicted: count,
      truePositives: tp,
      precision,
      recall,
      f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
      recallOnePercent: found1 / onePercent.length,
      recallShort: truthShort === 0 ? Number.NaN : tpShort / truthShort,
    };
  };

  const header =
    'weights  k  mode                 predicted   precision  recall  F1     recall@1%  recall-short  candidates  time';
  console.log(`\nnear-duplicate = exact word-3-shingle Jaccard >= ${NEAR_DUPLICATE}; verification threshold ${DEFAULT_SIMILARITY_THRESHOLD}`);
  console.log(`${onePercent.length} copies with 1% of words edited; ${truthShort} true pairs involve a short document`);
  console.log(header);
  console.log('-'.repeat(header.length));
  const best: Array<{ label: string; s: Scores }> = [];
  const row = (weights: string, k: number, mode: string, s: Scores, candidates: number, time: string) => {
    console.log(
      `${weights.padEnd(8)} ${String(k).padStart(2)}  ${mode.padEnd(20)} ${String(s.predicted).padStart(9)}   ${f3(s.precision)}      ${f3(s.recall)}   ${f3(s.f1)}  ${f3(s.recallOnePercent)}      ${f3(s.recallShort)}         ${String(candidates).padStart(9)}   ${time}`,
    );
    best.push({ label: `${weights} k=${k} ${mode}`, s });
  };

  // The product's feature sets (low 32 bits of each XXH64 shingle hash; they do not depend on the
  // weights), computed once here; in the app a worker rebuilds them from the texts of the documents
  // that appear in candidate pairs (see the worker-path timing below).
  t0 = performance.now();
  const binary = createFingerprinter({ features: { kind: 'word-shingle', n: 3 }, weights: 'binary', stopWords: false });
  const sets = texts.map((t) => binary.featureSet(t));
  const featureCount = Uint32Array.from(sets, (set) => set.length);
  const df = createDocumentFrequencyCounter();
  for (const set of sets) df.add(set);
  const documentFrequencies = df.result();
  console.log(`(feature sets and document frequencies: ${ms(t0)})`);

  const weightList = (args.includes('--weights') ? args[args.indexOf('--weights') + 1]! : 'binary,tf,tfidf').split(',') as WeightScheme[];
  for (const weights of weightList) {
    t0 = performance.now();
    const fp = createFingerprinter({ features: { kind: 'word-shingle', n: 3 }, weights, stopWords: false }, { documentFrequencies });
    const hi = new Uint32Array(n);
    const lo = new Uint32Array(n);
    const hasFingerprint = new Uint8Array(n);
    const words = new Uint32Array(n);
    for (let d = 0; d < n; d++) {
      const r = fp.fingerprint(texts[d]!);
      hi[d] = r.hi;
      lo[d] = r.lo;
      words[d] = r.words;
      hasFingerprint[d] = r.status === 'ok' ? 1 : 0;
    }
    console.log(`(${weights}: fingerprints ${ms(t0)})`);
    const input: NearDuplicateInput = { hi, lo, hasFingerprint, words, featureCount, getFeatureSet: (d) => sets[d]! };

    for (let k = kMin; k <= kMax; k++) {
      t0 = performance.now();
      const candidates = fingerprintCandidates(input, k);
      const indexTime = performance.now() - t0;
      row(weights, k, 'fingerprint only', score(candidates.a, candidates.b, candidates.count), candidates.count, `${indexTime.toFixed(0)} ms`);
      t0 = performance.now();
      const verified = findNearDuplicates(input, { k, candidates });
      row(weights, k, 'verified + short join', score(verified.pairs.a, verified.pairs.b, verified.pairs.count), candidates.count, `${(indexTime + performance.now() - t0).toFixed(0)} ms`);
      if (weights === 'binary' && k === DEFAULT_K) defaultsInput = input;
    }
  }

  const bestF1 = (mode: string) => best.filter((b) => b.label.endsWith(mode)).sort((x, y) => y.s.f1 - x.s.f1)[0];
  const bf = bestF1('fingerprint only');
  const bv = bestF1('verified + short join');
  if (bf) console.log(`\nbest fingerprint-only setting: ${bf.label}: F1 ${f3(bf.s.f1)} (precision ${f3(bf.s.precision)}, recall ${f3(bf.s.recall)})`);
  if (bv) console.log(`best verified setting: ${bv.label}: F1 ${f3(bv.s.f1)} (precision ${f3(bv.s.precision)}, recall ${f3(bv.s.recall)})`);

  if (defaultsInput) reportDefaults(defaultsInput, texts, truth.positives, score, truthSets.words);
  groupingAtScale();
}

let defaultsInput: NearDuplicateInput | undefined;

/** The shipped defaults end to end: pairs, reference-centred groups, components and their chaining. */
function reportDefaults(
  input: NearDuplicateInput,
  texts: readonly string[],
  positives: Map<number, number>,
  score: (a: ArrayLike<number>, b: ArrayLike<number>, count: number) => Scores,
  words: Uint32Array,
): void {
  const n = texts.length;
  let t0 = performance.now();
  const result = findNearDuplicates(input);
  const pipelineTime = ms(t0);
  const s = score(result.pairs.a, result.pairs.b, result.pairs.count);
  console.log(
    `\ndefaults (binary weights, word3, k = ${DEFAULT_K}, threshold ${DEFAULT_SIMILARITY_THRESHOLD}, short < ${SHORT_DOCUMENT_WORDS} words): ` +
      `precision ${f3(s.precision)}, recall ${f3(s.recall)}, F1 ${f3(s.f1)}, recall of 1%-edited copies ${f3(s.recallOnePercent)}, ` +
      `recall of pairs with a short document ${f3(s.recallShort)}`,
  );
  console.log(
    `  ${result.candidates} candidates within k, ${result.acceptedCandidates} verified; short-document join: ${result.joinPairs} pairs, ` +
      `${result.joinOnly} of them beyond the index's reach; pipeline ${pipelineTime}`,
  );
  // Recall by Jaccard band: where the misses are (64-bit SimHash distance is noisy near J = 0.8).
  const found = new Set<number>();
  for (let i = 0; i < result.pairs.count; i++) found.add(result.pairs.a[i]! * n + result.pairs.b[i]!);
  const bands = [0.8, 0.85, 0.9, 0.95, 1.0001];
  const bandText: string[] = [];
  for (let b = 0; b + 1 < bands.length; b++) {
    let total = 0;
    let hit = 0;
    for (const [key, j] of positives) {
      if (j < bands[b]! || j >= bands[b + 1]!) continue;
      total++;
      if (found.has(key)) hit++;
    }
    bandText.push(`[${bands[b]!.toFixed(2)}, ${Math.min(1, bands[b + 1]!).toFixed(2)}${b + 2 === bands.length ? ']' : ')'}: ${hit}/${total} = ${f3(hit / total)}`);
  }
  console.log(`  recall by Jaccard band: ${bandText.join('; ')}`);

  // The worker path: no feature set kept in memory; each is rebuilt from its text when a pair needs it.
  const fp = createFingerprinter({ features: { kind: 'word-shingle', n: 3 }, weights: 'binary', stopWords: false });
  let rebuilt = 0;
  t0 = performance.now();
  const fromTexts = findNearDuplicates({
    ...input,
    getFeatureSet: (d) => {
      rebuilt++;
      return fp.featureSet(texts[d]!);
    },
  });
  console.log(
    `  same pipeline re-tokenizing texts on demand (as a worker does): ${ms(t0)}, ${rebuilt} feature sets built ` +
      `for ${n} documents, ${fromTexts.pairs.count === result.pairs.count ? 'identical' : 'DIFFERENT'} result`,
  );

  t0 = performance.now();
  const groups = referenceGroups(n, result.pairs, { lengths: words });
  const groupTime = ms(t0);
  let sameGroup = 0;
  for (const key of positives.keys()) {
    const g = groups.groupOf[Math.floor(key / n)]!;
    if (g >= 0 && g === groups.groupOf[key % n]) sameGroup++;
  }
  let below = 0;
  for (let i = 0; i < groups.members.length; i++) if (groups.jaccardToReference[i]! < DEFAULT_SIMILARITY_THRESHOLD) below++;
  console.log(
    `  reference-centred groups: ${groups.count} groups, ${groups.members.length} documents, ${below} members below the threshold ` +
      `to their reference; ${(sameGroup / positives.size).toFixed(3)} of true pairs land in one group (${groupTime})`,
  );
  t0 = performance.now();
  const components = connectedComponents(n, result.pairs);
  const chaining = detectChaining(components, result.pairs, input.getFeatureSet);
  let largest = 0;
  for (let g = 0; g < components.count; g++) largest = Math.max(largest, components.offsets[g + 1]! - components.offsets[g]!);
  console.log(
    `  connected components: ${components.count} components (largest ${largest}), ${chaining.chained} chain ` +
      `(a member pair below the threshold), ${chaining.checks} Jaccard checks (${ms(t0)})`,
  );
}

/** One line of corpus composition: documents per role family. */
function describeCorpus(docs: readonly CorpusDocument[]): string {
  const counts = new Map<string, number>();
  for (const d of docs) {
    const role = d.role.startsWith('short-copy') ? 'short copies' : d.role.replace(/-\d+%$/, '');
    counts.set(role, (counts.get(role) ?? 0) + 1);
  }
  return [...counts].map(([r, c]) => `${r} ${c}`).join(', ');
}

/**
 * Grouping cost at product scale: 1,000,000 documents, 150,000 clusters of 2-5 near-duplicates
 * (about 400,000 verified pairs) plus chains between clusters. The verified pairs are synthetic here;
 * only the grouping is timed.
 */
function groupingAtScale(): void {
  const n = 1_000_000;
  let seed = 7;
  const rand = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 4294967296);
  const a: number[] = [];
  const b: number[] = [];
  let doc = 0;
  for (let c = 0; c < 150_000 && doc < n - 5; c++) {
    const size = 2 + Math.floor(rand() * 4);
    for (let i = 0; i < size; i++) for (let j = i + 1; j < size; j++) if (rand() < 0.8 || j === i + 1) {
      a.push(doc + i);
      b.push(doc + j);
    }
    if (c > 0 && rand() < 0.1) {
      a.push(doc - 1);
      b.push(doc);
    }
    doc += size + 1;
  }
  const pairs = {
    a: Uint32Array.from(a),
    b: Uint32Array.from(b),
    distance: new Uint8Array(a.length).fill(6),
    jaccard: Float32Array.from(a, () => 0.8 + rand() * 0.2),
    count: a.length,
  };
  let t0 = performance.now();
  const groups = referenceGroups(n, pairs);
  const refTime = ms(t0);
  t0 = performance.now();
  const components = connectedComponents(n, pairs);
  console.log(
    `
grouping at scale (${n.toLocaleString('en')} documents, ${pairs.count.toLocaleString('en')} verified pairs): ` +
      `reference-centred ${groups.count.toLocaleString('en')} groups in ${refTime}; components ${components.count.toLocaleString('en')} in ${ms(t0)}`,
  );
}
