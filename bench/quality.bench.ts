/**
 * `npm run bench -- quality [--seed N] [--scale F] [--k 12,14] [--weights binary,tf,tfidf] [--keep]`:
 * detection quality on a generated corpus, scored from what a user takes away. Writes the corpus
 * (bench/quality/corpus.ts) as a folder of .txt files, runs `node bin/simsift.js scan DIR --out
 * pairs.csv` as a child process (as quality-real does for real text), reads the CSV file back and
 * scores it pair by pair against brute-force ground truth: exact Jaccard of word 3-shingle sets of
 * the texts the scan compares (read back through the CLI's loadText), near-duplicate = Jaccard >= 0.8.
 * Besides precision, recall and recall per Jaccard band it gives the recall of the 1%-edited copies
 * (each paired with its original) and of the true pairs with a short document.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadText } from '../src/cli/load-text.ts';
import { DEFAULT_SIMILARITY_THRESHOLD, SHORT_DOCUMENT_WORDS } from '../src/core/quality/defaults.ts';
import { parseWeightScheme, type WeightScheme } from '../src/core/simhash/settings.ts';
import { DEFAULT_CORPUS_OPTIONS, generateCorpus, type CorpusDocument } from './quality/corpus.ts';
import { groundTruth, shingleSets } from './quality/ground-truth.ts';
import { pairKey } from './real-text/score-csv.ts';
import { BAND_NOTE, f3, parseKList, round, runJson, runNotes, scanAndScore, SCORE_HEADER, scoreCells, type ScoredScan } from './scan-cli.ts';
import { benchOptions, numberOption } from './harness.ts';

const NEAR_DUPLICATE = 0.8;

/** `--weights binary,tf` (its value, if given): the weight schemes to run the CLI with (none: its default). */
function parseWeightList(value: string | undefined): WeightScheme[] {
  if (value === undefined) return [];
  return value.split(',').map((w) => {
    const scheme = parseWeightScheme(w);
    if (!scheme) throw new Error('--weights needs binary, tf or tfidf, comma-separated');
    return scheme;
  });
}

const ms = (t0: number): string => `${(performance.now() - t0).toFixed(0)} ms`;

interface QualityRun extends ScoredScan {
  label: string;
  weights: string;
  /** 1%-edited copies found paired with their original. */
  onePercent: { found: number; total: number };
  /** True pairs with a document under SHORT_DOCUMENT_WORDS words, found. */
  short: { found: number; total: number };
}

export async function main(args: string[]): Promise<void> {
  const o = benchOptions(
    args,
    { seed: { type: 'string' }, scale: { type: 'string' }, k: { type: 'string' }, weights: { type: 'string' }, keep: { type: 'boolean' } },
    'usage: npm run bench -- quality [--seed N] [--scale F] [--k 12,14] [--weights binary,tf,tfidf] [--keep]',
  );
  if (!o) return;
  const seed = numberOption(o.seed, DEFAULT_CORPUS_OPTIONS.seed, 'seed');
  const scale = numberOption(o.scale, 1, 'scale');
  const extraK = parseKList(o.k);
  const weightList = parseWeightList(o.weights);
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
  const generated = ms(t0);
  t0 = performance.now();
  const paths = docs.map((d, i) => `${String(i).padStart(4, '0')}-${d.role.replace(/[^a-z0-9%]+/gi, '-')}.txt`);
  const root = mkdtempSync(join(tmpdir(), 'simsift-quality-'));
  const docsDir = join(root, 'docs');
  mkdirSync(docsDir);
  let bytes = 0;
  docs.forEach((d, i) => {
    const data = Buffer.from(d.text, 'utf8');
    bytes += data.length;
    writeFileSync(join(docsDir, paths[i]!), data);
  });
  console.log(`corpus: ${n} documents, ${(bytes / 1e6).toFixed(1)} MB, seed ${seed}, generated in ${generated}, written to ${docsDir} in ${ms(t0)}`);
  console.log(`  ${describeCorpus(docs)}`);

  try {
    // The truth compares the texts the scan compares: each file read back as the CLI reads it (core documentText).
    t0 = performance.now();
    const texts: string[] = [];
    let unlike = 0;
    for (let i = 0; i < n; i++) {
      const loaded = await loadText(join(docsDir, paths[i]!));
      if (!loaded.ok) throw new Error(`${paths[i]}: ${loaded.message}`);
      texts.push(loaded.text);
      if (loaded.text !== docs[i]!.text) unlike++;
    }
    const truthSets = shingleSets(texts);
    const truth = groundTruth(truthSets.sets, NEAR_DUPLICATE);
    const isShort = (d: number) => truthSets.words[d]! < SHORT_DOCUMENT_WORDS;
    const shortDocs = docs.filter((_, d) => isShort(d)).length;
    console.log(
      `ground truth: ${truth.positives.size} pairs with Jaccard >= ${NEAR_DUPLICATE} among ${((n * (n - 1)) / 2).toLocaleString('en')} ` +
        `(brute force, ${truth.merged.toLocaleString('en')} merged after the exact size bound; ${ms(t0)}); ${shortDocs} short documents ` +
        `(< ${SHORT_DOCUMENT_WORDS} words); ${unlike} files read back unlike their generated text`,
    );

    // The 1%-edited copies, each paired with the original it was made from.
    const onePercent = docs.flatMap((d, i) => (/^(delete|insert|replace)-1%$/.test(d.role) ? [pairKey(d.source, i, n)] : []));
    const onePercentTrue = onePercent.filter((key) => truth.positives.has(key)).length;
    const shortTruth = [...truth.positives.keys()].filter((key) => isShort(Math.floor(key / n)) || isShort(key % n));
    console.log(
      `${onePercent.length} copies with 1% of words edited (${onePercentTrue} of them at Jaccard >= ${NEAR_DUPLICATE} to their original); ` +
        `${shortTruth.length} true pairs involve a short document`,
    );

    const ids = new Map(paths.map((p, i) => [p, i]));
    const runs: QualityRun[] = [];
    for (const weights of weightList.length > 0 ? weightList : [undefined]) {
      for (const k of [undefined, ...extraK]) {
        const csvPath = join(root, `pairs${weights ? `-${weights}` : ''}${k === undefined ? '' : `-k${k}`}.csv`);
        const options = { ...(k === undefined ? {} : { k }), ...(weights === undefined ? {} : { weights }) };
        const run = scanAndScore(docsDir, csvPath, ids, truth.positives, options);
        const found = (keys: readonly number[]) => keys.filter((key) => run.csv.pairs.has(key)).length;
        runs.push({
          ...run,
          label: `${weights ?? 'binary'} k=${run.k}${k === undefined ? ' (default)' : ''}`,
          weights: weights ?? 'binary',
          onePercent: { found: found(onePercent), total: onePercent.length },
          short: { found: found(shortTruth), total: shortTruth.length },
        });
      }
    }

    console.log(`\nthe exported CSV, scored pair by pair (near-duplicate = Jaccard >= ${NEAR_DUPLICATE}; CLI threshold ${DEFAULT_SIMILARITY_THRESHOLD}):`);
    const header = `${'run'.padEnd(22)} ${SCORE_HEADER}recall@1%  recall-short  cli time`;
    console.log(header);
    console.log('-'.repeat(header.length));
    for (const r of runs) {
      console.log(
        `${r.label.padEnd(22)} ${scoreCells(r)}${f3(r.onePercent.found / r.onePercent.total)}      ` +
          `${f3(r.short.found / r.short.total)}         ${r.seconds.toFixed(1)} s`,
      );
    }
    console.log(`(${BAND_NOTE}; recall@1%: 1%-edited copies found paired with their original; recall-short: true pairs with a short document)`);
    for (const r of runs) for (const line of runNotes(r.label, r, truth.positives, paths)) console.log(line);

    console.log(
      JSON.stringify({
        bench: 'quality',
        corpus: { documents: n, seed, scale, truePairs: truth.positives.size, shortDocuments: shortDocs, onePercentCopies: onePercent.length, shortTruePairs: shortTruth.length },
        runs: runs.map((r) => ({
          run: r.label,
          weights: r.weights,
          ...runJson(r),
          onePercentRecall: round(r.onePercent.found / r.onePercent.total),
          shortRecall: round(r.short.found / r.short.total),
        })),
      }),
    );
  } finally {
    if (o.keep) console.log(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
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
