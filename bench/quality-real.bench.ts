/**
 * `npm run bench -- quality-real [--k 12,14,16] [--rebuild]`: detection quality on real text, scored
 * from what a user takes away. Runs `node bin/simsift.js scan DIR --out pairs.csv` as a child process
 * on the real-text corpus (bench/real-corpus.ts; built when missing), reads the CSV file back and
 * scores it pair by pair against the exact Jaccard of the verifier's word 3-shingle sets
 * (near-duplicate = Jaccard >= 0.8), with recall per Jaccard band; then, as a diagnostic, the recall
 * of the 64-bit fingerprint alone (Hamming distance <= k) per band for k = 8..20.
 */
import { join } from 'node:path';
import { hamming } from '../src/core/simhash/fingerprint64.ts';
import { DEFAULT_SIMILARITY_THRESHOLD } from '../src/core/quality/defaults.ts';
import { buildRealCorpus, describeRealCorpus, loadRealCorpus, MissingLinuxDocError, REAL_CORPUS_DIR, type RealCorpusManifest } from './real-corpus.ts';
import { bruteForceDisagreements, documentFeatures, realGroundTruth } from './real-text/ground-truth.ts';
import { bandOf, JACCARD_BANDS } from './real-text/score-csv.ts';
import { BAND_NOTE, f3, parseKList, round, runJson, runNotes, scanAndScore, SCORE_HEADER, scoreCells, type ScoredScan } from './scan-cli.ts';
import { mulberry32 } from '../tests/fixtures/mulberry32.ts';
import { benchOptions } from './harness.ts';

const NEAR_DUPLICATE = 0.8;
/** k range of the fingerprint-only diagnostic. */
const DIAGNOSTIC_K = { min: 8, max: 20 };
/** Documents whose every pair is checked by brute force against the fast ground truth. */
const BRUTE_FORCE_SAMPLE = 400;

const ms = (t0: number): string => `${(performance.now() - t0).toFixed(0)} ms`;

interface CliRun extends ScoredScan {
  label: string;
  /** Recall of the true pairs between two base documents (natural near-duplicates) and of those involving a planted copy. */
  natural: { found: number; total: number };
  planted: { found: number; total: number };
}

export async function main(args: string[]): Promise<void> {
  const o = benchOptions(args, { k: { type: 'string' }, rebuild: { type: 'boolean' } }, 'usage: npm run bench -- quality-real [--k 12,14,16] [--rebuild]');
  if (!o) return;
  const extraK = parseKList(o.k);
  let t0 = performance.now();
  let manifest: RealCorpusManifest | null = o.rebuild ? null : loadRealCorpus();
  if (manifest) {
    console.log(`corpus: ${REAL_CORPUS_DIR} (on disk; --rebuild to build it again)`);
  } else {
    try {
      manifest = buildRealCorpus();
    } catch (error) {
      if (!(error instanceof MissingLinuxDocError)) throw error;
      console.error(`${error.message}: the real-text corpus needs the kernel documentation. Install it with:\n  apt-get install linux-doc`);
      process.exitCode = 1;
      return;
    }
    console.log(`corpus: built in ${ms(t0)} into ${REAL_CORPUS_DIR}`);
  }
  const docsDir = join(REAL_CORPUS_DIR, 'docs');
  const paths = manifest.documents.map((d) => d.path);
  const n = paths.length;
  console.log(`  ${n} files, digest ${manifest.digest}: ${describeRealCorpus(manifest)}`);
  if (manifest.missingPackages.length > 0) console.log(`  npm packages not installed when it was built: ${manifest.missingPackages.join(', ')}`);

  t0 = performance.now();
  const features = await documentFeatures(docsDir, paths);
  const featureTime = ms(t0);
  t0 = performance.now();
  const truth = realGroundTruth(features.sets, NEAR_DUPLICATE);
  const truthTime = ms(t0);
  const base = (d: number) => manifest.documents[d]!.role === 'base';
  let naturalTotal = 0;
  for (const key of truth.positives.keys()) if (base(Math.floor(key / n)) && base(key % n)) naturalTotal++;
  console.log(
    `ground truth: ${truth.positives.size} pairs with exact Jaccard >= ${NEAR_DUPLICATE} (${naturalTotal} between two base documents, ` +
      `${truth.positives.size - naturalTotal} with a planted copy) among ${truth.withFeatures} files with features ` +
      `(${n - truth.withFeatures} without: empty, binary or too short), ${truth.classes} distinct feature sets; ` +
      `reading and feature sets ${featureTime}, prefix-filtered join ${truthTime} (${truth.merged} set intersections)`,
  );
  t0 = performance.now();
  const next = mulberry32(7);
  const sample = new Set<number>();
  // Half the sample from planted copies and their sources, where the positives are; half anywhere.
  const planted = manifest.documents.flatMap((d, i) => (d.source >= 0 ? [i, d.source] : []));
  while (sample.size < BRUTE_FORCE_SAMPLE / 2 && planted.length > 0) sample.add(planted[next() % planted.length]!);
  while (sample.size < Math.min(BRUTE_FORCE_SAMPLE, n)) sample.add(next() % n);
  const disagreements = bruteForceDisagreements(features.sets, truth.positives, [...sample], NEAR_DUPLICATE);
  console.log(`  brute-force check over all pairs of ${sample.size} files: ${disagreements} disagreements (${ms(t0)})`);
  if (disagreements > 0) throw new Error('the prefix-filtered ground truth disagrees with brute force');

  const runs: CliRun[] = [];
  const ids = new Map(paths.map((p, i) => [p, i]));
  for (const k of [undefined, ...extraK]) {
    const csvPath = join(REAL_CORPUS_DIR, k === undefined ? 'pairs.csv' : `pairs-k${k}.csv`);
    const run = scanAndScore(docsDir, csvPath, ids, truth.positives, k === undefined ? {} : { k });
    let naturalFound = 0;
    let plantedFound = 0;
    for (const key of run.csv.pairs) {
      if (!truth.positives.has(key)) continue;
      if (base(Math.floor(key / n)) && base(key % n)) naturalFound++;
      else plantedFound++;
    }
    runs.push({
      ...run,
      label: k === undefined ? `defaults (k=${run.k})` : `--k ${k}`,
      natural: { found: naturalFound, total: naturalTotal },
      planted: { found: plantedFound, total: truth.positives.size - naturalTotal },
    });
  }

  console.log(`\nthe exported CSV, scored pair by pair (near-duplicate = Jaccard >= ${NEAR_DUPLICATE}; CLI threshold ${DEFAULT_SIMILARITY_THRESHOLD}):`);
  const header = `${'run'.padEnd(16)} ${SCORE_HEADER}natural  planted  cli time`;
  console.log(header);
  console.log('-'.repeat(header.length));
  for (const r of runs) {
    console.log(`${r.label.padEnd(16)} ${scoreCells(r)}${f3(r.natural.found / r.natural.total)}    ${f3(r.planted.found / r.planted.total)}    ${r.seconds.toFixed(1)} s`);
  }
  console.log(`(${BAND_NOTE}; natural: pairs of two base documents; planted: pairs with a planted copy)`);
  for (const r of runs) for (const line of runNotes(r.label, r, truth.positives, paths)) console.log(line);

  // Diagnostic: how many true pairs the fingerprint alone brings within k, per band (exact copies are at distance 0).
  const bandTotals = JACCARD_BANDS.map(() => 0);
  const atDistance = JACCARD_BANDS.map(() => new Uint32Array(65));
  for (const [key, j] of truth.positives) {
    const a = Math.floor(key / n);
    const b = key % n;
    const band = bandOf(j);
    bandTotals[band]!++;
    atDistance[band]![hamming(features.hi[a]!, features.lo[a]!, features.hi[b]!, features.lo[b]!)]!++;
  }
  const candidateRecall: Record<number, Record<string, number | null>> = {};
  console.log(`\ndiagnostic: fingerprint candidate recall (true pairs with Hamming distance <= k, 64-bit binary word3 fingerprints)`);
  const dHeader = ' k   ' + JACCARD_BANDS.map((b) => b.label.padEnd(12)).join('') + '[0.80,0.90)  all';
  console.log(dHeader);
  console.log('-'.repeat(dHeader.length));
  for (let k = DIAGNOSTIC_K.min; k <= DIAGNOSTIC_K.max; k++) {
    const within = atDistance.map((hist) => hist.slice(0, k + 1).reduce((x, y) => x + y, 0));
    const low = (within[0]! + within[1]!) / (bandTotals[0]! + bandTotals[1]!);
    const all = within.reduce((x, y) => x + y, 0) / truth.positives.size;
    candidateRecall[k] = Object.fromEntries([
      ...JACCARD_BANDS.map((b, i) => [b.label, round(within[i]! / bandTotals[i]!)]),
      ['[0.80,0.90)', round(low)],
      ['all', round(all)],
    ]);
    console.log(`${String(k).padStart(2)}   ${within.map((w, i) => f3(w / bandTotals[i]!).padEnd(12)).join('')}${f3(low).padEnd(13)}${f3(all)}`);
  }
  const enough = Object.entries(candidateRecall).find(([, r]) => (r['[0.80,0.90)'] ?? 0) >= 0.97);
  console.log(enough ? `smallest k with candidate recall >= 0.97 at J in [0.8, 0.9): ${enough[0]}` : `candidate recall at J in [0.8, 0.9) stays below 0.97 up to k = ${DIAGNOSTIC_K.max}`);

  console.log(
    JSON.stringify({
      bench: 'quality-real',
      corpus: { files: n, digest: manifest.digest, withFeatures: truth.withFeatures, truePairs: truth.positives.size, naturalPairs: naturalTotal, bandTotals },
      runs: runs.map((r) => ({
        run: r.label,
        ...runJson(r),
        naturalRecall: round(r.natural.found / r.natural.total),
        plantedRecall: round(r.planted.found / r.planted.total),
      })),
      candidateRecall,
    }),
  );
}
