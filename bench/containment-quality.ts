/**
 * The held-out containment set and its scoring from the CSV a user takes away, shared by
 * `npm run bench -- containment-quality` and its unit test. Base documents are real text nobody on the
 * team wrote and that the search was not tuned on (bench/containment-corpus.ts tunes on linux-doc's
 * reStructuredText): Debian's licences (/usr/share/common-licenses), packages' copyright files
 * (/usr/share/doc/PACKAGE/copyright) and, when installed, linux-doc's other files (MAINTAINERS,
 * CREDITS, the .txt documents). Excerpts (30-60% of a document's lines, contiguous) and documents with
 * another appended are made from them. The truth is exact: every pair (A, B) whose feature sets, read
 * as the CLI reads the files, have |A ∩ B| / |A| >= 0.9 and Jaccard < 0.8.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { withMadeDocuments, type ContainmentDoc } from './containment-corpus.ts';
import { exactContainedPairs } from './containment.bench.ts';
import { documentFeatures } from './real-text/ground-truth.ts';
import { readPairsCsv } from './real-text/score-csv.ts';

export const CONTAINMENT = 0.9;
export const NEAR_DUPLICATE = 0.8;

/** Readable text of a file (gunzipped when it ends in .gz), or null. */
function textOf(path: string): string | null {
  try {
    const raw = readFileSync(path);
    return (path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  } catch {
    return null;
  }
}

/** linux-doc's files other than the .rst the tuning corpus uses, in name order. */
function linuxDocOthers(dir: string, out: string[]): void {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) linuxDocOthers(path, out);
    else if (!/\.rst(\.gz)?$/.test(name) && /(\.txt(\.gz)?|^MAINTAINERS\.gz|^CREDITS\.gz)$/.test(name)) out.push(path);
  }
}

/**
 * Up to `limit` distinct base documents of at least `minLines` lines: the licences first, then
 * copyright files, then linux-doc's others (each source in name order; exact repeats left out).
 */
export function heldOutBases(limit: number, minLines = 20): ContainmentDoc[] {
  const sources: Array<[string, string]> = [];
  const licences = '/usr/share/common-licenses';
  try {
    for (const name of readdirSync(licences).sort()) sources.push([join(licences, name), `licences/${name}`]);
  } catch {
    // absent: the other sources only
  }
  let packages: string[] = [];
  try {
    packages = readdirSync('/usr/share/doc').sort();
  } catch {
    packages = [];
  }
  for (const p of packages) sources.push([join('/usr/share/doc', p, 'copyright'), `copyright/${p}.txt`]);
  const others: string[] = [];
  linuxDocOthers('/usr/share/doc/linux-doc', others);
  for (const path of others) sources.push([path, `linux-doc/${path.slice('/usr/share/doc/linux-doc/'.length).replace(/\.gz$/, '')}`]);
  const seen = new Set<string>();
  const docs: ContainmentDoc[] = [];
  for (const [file, path] of sources) {
    if (docs.length >= limit) break;
    const text = textOf(file);
    if (text === null || text.split('\n').length < minLines || seen.has(text)) continue;
    seen.add(text);
    docs.push({ path, text, kind: 'base' });
  }
  return docs;
}

/** The held-out set: `bases` documents with `excerpts` excerpts and `appended` joined documents (seeded). */
export function heldOutCorpus(bases: number, excerpts: number, appended: number, seed = 2039): ContainmentDoc[] {
  const base = heldOutBases(bases);
  if (base.length < 2) throw new Error('no base documents: /usr/share/common-licenses and /usr/share/doc/*/copyright are missing');
  // A made document that repeats another's text exactly (the same pair appended twice) is left out:
  // the relation is stated once per text, so a second copy could only be counted as missed.
  const seen = new Set<string>();
  return withMadeDocuments(base, excerpts, appended, seed).filter((d) => !seen.has(d.text) && seen.add(d.text));
}

/** Writes the documents under `dir` at their paths. */
export function writeCorpus(dir: string, docs: readonly ContainmentDoc[]): void {
  for (const doc of docs) {
    const path = join(dir, ...doc.path.split('/'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, doc.text);
  }
}

/** Contained pairs' recall and precision against the exact truth, and the made documents' recall. */
export interface ContainmentScores {
  truePairs: number;
  found: number;
  hits: number;
  recall: number;
  precision: number;
  /** True pairs with an excerpt or an appended document in them, and how many were found. */
  madePairs: number;
  madeFound: number;
  /** Rows naming no document of the set. */
  unknownRows: number;
}

/** Every exactly contained pair of the documents at `paths` under `dir`, as inner * n + outer (feature sets read as the CLI reads them). */
export async function containedTruth(dir: string, paths: readonly string[]): Promise<Set<number>> {
  const { sets } = await documentFeatures(dir, paths);
  const n = paths.length;
  const truth = new Set<number>();
  for (const pair of exactContainedPairs(sets, CONTAINMENT, NEAR_DUPLICATE)) {
    const [a, b] = pair.split(' ').map(Number);
    truth.add(a! * n + b!);
  }
  return truth;
}

/** Scores the contained rows of an exported pairs CSV (`csv`) against `truth` (containedTruth's keys). */
export function scoreContained(csv: string, docs: readonly ContainmentDoc[], truth: ReadonlySet<number>): ContainmentScores {
  const ids = new Map(docs.map((d, i) => [d.path, i]));
  const read = readPairsCsv(csv, ids, 'contained');
  const n = docs.length;
  let hits = 0;
  for (const key of read.pairs) if (truth.has(key)) hits++;
  let madePairs = 0;
  let madeFound = 0;
  for (const key of truth) {
    if (docs[Math.floor(key / n)]!.kind === 'base' && docs[key % n]!.kind === 'base') continue;
    madePairs++;
    if (read.pairs.has(key)) madeFound++;
  }
  const found = read.pairs.size + read.unknownRows;
  return {
    truePairs: truth.size,
    found,
    hits,
    recall: hits / Math.max(1, truth.size),
    precision: hits / Math.max(1, found),
    madePairs,
    madeFound,
    unknownRows: read.unknownRows,
  };
}
