/**
 * `npm run bench -- fingerprint [--corpus real,generated] [--runs 3] [--mb 100] [--settings word3:binary,char5:binary] [--seed 1]
 *   [--against OTHER/src/core/simhash/fingerprinter.ts]`
 *
 * Fingerprinting throughput on one core, in process, all texts in memory: times
 * `createFingerprinter(settings).fingerprint(text)` in a loop over a corpus and prints MB/s of UTF-8
 * text and features/s per settings (the median of `--runs` passes, with the fastest pass and the
 * MB/s per CPU-second, which discount time the thread waited for a busy machine), first on real
 * text (every kernel Documentation file from linux-doc and the pinned npm packages' prose files,
 * as the real-text quality evaluation reads them, without planted copies), then on a deterministic
 * generated corpus. The generated corpus mixes plain-ASCII English-like prose with documents
 * carrying typographic quotes, accented names, some Greek/Cyrillic and some CJK.
 * `--against` also times another version's fingerprinter, pass for pass in turn with this one, and
 * prints how much faster this one is (checksums show whether both gave the same fingerprints).
 */
import { createFingerprinter, type Fingerprinter, type FingerprinterOptions } from '../src/core/simhash/fingerprinter.ts';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { decodeText } from '../src/core/text/decode.ts';
import { createUtf8Buffer, normalizedUtf8 } from '../src/core/text/normalized-utf8.ts';
import xxhash from 'xxhash-wasm';
import { MissingLinuxDocError, realTextSources } from './real-corpus.ts';
import { createDocumentFrequencyCounter } from '../src/core/simhash/document-frequencies.ts';
import { parseFeatureSpec, parseWeightScheme } from '../src/core/simhash/settings.ts';
import type { SimHashSettings } from '../src/core/simhash/settings.ts';
import { mulberry32Unit as rng } from '../tests/fixtures/mulberry32.ts';
import { benchOptions, numberOption } from './harness.ts';

const COMMON = (
  'the of and to a in is that for it as was with be by on not he this are or his from at which but have an ' +
  'they you were her she there been one all we their has would when if so no will more can who out about ' +
  'said up some what them its other into time than only new could these two may first then do any like my ' +
  'now over such our man me even most made after also did many before must through back years where much ' +
  'your way well down should because each just those people how too little state good very make world still'
).split(' ');
const ACCENTED = ['café', 'naïve', 'résumé', 'Zürich', 'São', 'Ångström', 'Dvořák', 'Łódź', 'Straße', 'façade'];
const GREEK = ['λόγος', 'ΑΘΗΝΑ', 'καλημέρα', 'θάλασσα'];
const CYRILLIC = ['Москва', 'привет', 'книга', 'мир'];
const CJK = '東京都大阪市日本語文章検索重複類似度計算情報処理開発者研究所会社電話番号の中にあるからですます';

/** A Zipf-distributed vocabulary: common words first, then syllable-built words. */
function buildVocabulary(next: () => number): string[] {
  const syllables = ['ka', 'ri', 'to', 'men', 'sa', 'lo', 'ver', 'in', 'ta', 'ble', 'con', 'di', 'tion', 'ex', 'pro',
    'ment', 'al', 'er', 'ing', 'ous', 'ly', 'ra', 'de', 'mi', 'nor', 'sto', 'pha', 'gen', 'qui', 'bar'];
  const words = [...COMMON];
  const seen = new Set(words);
  while (words.length < 20000) {
    const n = 1 + Math.floor(next() * 4);
    let w = '';
    for (let i = 0; i < n; i++) w += syllables[Math.floor(next() * syllables.length)];
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  return words;
}

/** Generates documents until `targetBytes` of UTF-8: prose with sentences, paragraphs, numbers, some non-ASCII. */
export function generateCorpus(targetBytes: number, seed: number): { docs: string[]; bytes: number } {
  const next = rng(seed);
  const vocab = buildVocabulary(next);
  // Zipf(1) sampling via the inverse CDF over ranks, approximated by exp(u * ln(V)).
  const lnV = Math.log(vocab.length);
  const word = () => vocab[Math.min(vocab.length - 1, Math.floor(Math.exp(next() * lnV)) - 1)];
  const docs: string[] = [];
  let bytes = 0;
  const encoder = new TextEncoder();
  while (bytes < targetBytes) {
    const flavor = next();
    // Document size: log-uniform 500 B .. 40 KB, like a folder of notes, articles and reports.
    const size = Math.floor(Math.exp(Math.log(500) + next() * (Math.log(40000) - Math.log(500))));
    const parts: string[] = [];
    let len = 0;
    let sentenceStart = true;
    let quoteOpen = false;
    while (len < size) {
      let w: string;
      const r = next();
      if (flavor < 0.03 && r < 0.6) {
        const start = Math.floor(next() * (CJK.length - 8));
        w = CJK.slice(start, start + 2 + Math.floor(next() * 6));
      } else if (flavor < 0.1 && r < 0.08) {
        w = (next() < 0.5 ? GREEK : CYRILLIC)[Math.floor(next() * 4)];
      } else if (flavor < 0.3 && r < 0.03) {
        w = ACCENTED[Math.floor(next() * ACCENTED.length)];
      } else if (r < 0.02) {
        w = String(Math.floor(next() * 10000));
      } else {
        w = word();
      }
      if (sentenceStart) w = w.charAt(0).toUpperCase() + w.slice(1);
      sentenceStart = false;
      let sep = ' ';
      const p = next();
      if (p < 0.06) {
        sep = next() < 0.1 ? '.\n\n' : '. ';
        sentenceStart = true;
      } else if (p < 0.1) sep = ', ';
      else if (p < 0.105 && flavor < 0.3) {
        sep = quoteOpen ? '” ' : ' “';
        quoteOpen = !quoteOpen;
      } else if (p < 0.108 && flavor < 0.3) sep = ' — ';
      parts.push(w, sep);
      len += w.length + sep.length;
    }
    const doc = parts.join('');
    docs.push(doc);
    bytes += encoder.encode(doc).length;
  }
  return { docs, bytes };
}

/** A corpus as texts (`docs`) and as the files they were decoded from (`files`: what a scan reads). */
type Corpus = { name: string; docs: string[]; files: { name: string; bytes: Uint8Array }[]; bytes: number; describe: string };

function parseArgs(args: string[]): {
  mb: number;
  seed: number;
  runs: number;
  corpora: string[];
  settings: SimHashSettings[];
  labels: string[];
  against: string | null;
} | null {
  const o = benchOptions(
    args,
    { mb: { type: 'string' }, seed: { type: 'string' }, settings: { type: 'string' }, runs: { type: 'string' }, corpus: { type: 'string' }, against: { type: 'string' } },
    'usage: npm run bench -- fingerprint [--mb 100] [--seed 1] [--settings word3:binary,...] [--runs 3] [--corpus real,generated] [--against DIR]',
  );
  if (!o) return null;
  const mb = numberOption(o.mb, 100, 'mb');
  const seed = numberOption(o.seed, 1, 'seed');
  const runs = numberOption(o.runs, 3, 'runs');
  const corpora = o.corpus ?? 'real,generated';
  const against = o.against ?? null;
  const list = o.settings ?? 'word3:binary,word1:binary,word3:tf,char5:binary,word3:tfidf';
  if (!(mb > 0)) throw new Error('--mb must be a positive number');
  if (!(runs >= 1)) throw new Error('--runs must be at least 1');
  const labels = list.split(',');
  const settings = labels.map((label) => {
    const [spec, weights = 'binary', stop] = label.split(':');
    const features = parseFeatureSpec(spec);
    const w = parseWeightScheme(weights);
    if (!features || !w) throw new Error(`bad settings: ${label} (expected e.g. word3:binary or word1:tf:stop)`);
    return { features, weights: w, stopWords: stop === 'stop' };
  });
  return { mb, seed, runs, corpora: corpora.split(','), settings, labels, against };
}

const utf8Length = (docs: string[]) => docs.reduce((sum, d) => sum + Buffer.byteLength(d, 'utf8'), 0);
const asciiShare = (docs: string[]) => docs.filter((d) => !/[^\x00-\x7f]/.test(d)).length / docs.length;

/**
 * The real-text corpus: every kernel Documentation file (linux-doc) and the prose files of the
 * pinned npm packages, the real-text quality evaluation's sources without its planted copies,
 * decoded as a scan decodes them (binary files skipped). Nothing in it is generated.
 */
function realCorpus(): Corpus {
  const t0 = performance.now();
  const docs: string[] = [];
  const files: Corpus['files'] = [];
  for (const source of realTextSources()) {
    const decoded = decodeText(source.bytes);
    if (decoded.ok) {
      docs.push(decoded.text);
      files.push({ name: source.path, bytes: source.bytes });
    }
  }
  const bytes = utf8Length(docs);
  const describe =
    `real: ${docs.length} documents (linux-doc Documentation + npm package docs), ${(bytes / 1e6).toFixed(1)} MB UTF-8, ` +
    `${(100 * asciiShare(docs)).toFixed(0)}% pure ASCII, read in ${((performance.now() - t0) / 1000).toFixed(1)} s`;
  return { name: 'real', docs, files, bytes, describe };
}

function generatedCorpus(mb: number, seed: number): Corpus {
  const t0 = performance.now();
  const { docs, bytes } = generateCorpus(mb * 1e6, seed);
  const describe =
    `generated: ${docs.length} documents, ${(bytes / 1e6).toFixed(1)} MB UTF-8, ${(100 * asciiShare(docs)).toFixed(0)}% ` +
    `pure ASCII, generated in ${((performance.now() - t0) / 1000).toFixed(1)} s (seed ${seed})`;
  const files = docs.map((d) => ({ name: 'generated.txt', bytes: new TextEncoder().encode(d) }));
  return { name: 'generated', docs, files, bytes, describe };
}

type PassResult = { seconds: number; cpuSeconds: number; features: number; checksum: number; tooShort: number };

/**
 * Times `runs` full passes of each fingerprinter over the corpus (after a warm-up), interleaved so
 * that a busy machine slows them alike; returns each one's median pass and its fastest pass's seconds.
 */
function timePasses(fps: Fingerprinter[], docs: string[], runs: number) {
  for (const fp of fps) for (let i = 0; i < Math.min(docs.length, 300); i++) fp.fingerprint(docs[i]);
  const passes: PassResult[][] = fps.map(() => []);
  for (let run = 0; run < runs; run++) {
    fps.forEach((fp, k) => {
      let checksum = 0;
      let tooShort = 0;
      let features = 0;
      const t = performance.now();
      const cpu0 = process.cpuUsage();
      for (const d of docs) {
        const r = fp.fingerprint(d);
        checksum = (checksum ^ r.hi ^ Math.imul(r.lo, 31)) >>> 0;
        features += r.features;
        if (r.status !== 'ok') tooShort++;
      }
      const seconds = (performance.now() - t) / 1000;
      const cpu = process.cpuUsage(cpu0);
      passes[k].push({ seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, features, checksum, tooShort });
    });
  }
  return passes.map((list) => {
    list.sort((x, y) => x.seconds - y.seconds);
    return { ...list[Math.floor((list.length - 1) / 2)], bestSeconds: list[0].seconds };
  });
}

/**
 * Times the ingest worker's whole path from a file's bytes, as `timePasses` times the kernel on
 * texts: normalizedUtf8 (decode, HTML rule, normalization), the XXH64 content hash of those bytes
 * (xxhash-wasm) and fingerprintNormalized.
 */
async function timeFromBytes(fp: Fingerprinter, files: Corpus['files'], runs: number) {
  const { h64Raw } = await xxhash();
  const buffer = createUtf8Buffer();
  const pass = () => {
    let checksum = 0;
    let tooShort = 0;
    let features = 0;
    for (const f of files) {
      const doc = normalizedUtf8(f.bytes, f.name, buffer);
      if (!doc.ok) continue;
      checksum = (checksum + Number(h64Raw(doc.utf8) & 0xffn)) >>> 0;
      const r = fp.fingerprintNormalized(doc.utf8, doc.ascii);
      features += r.features;
      if (r.status !== 'ok') tooShort++;
    }
    return { checksum, tooShort, features };
  };
  pass();
  const list: Array<PassResult> = [];
  for (let run = 0; run < runs; run++) {
    const t = performance.now();
    const cpu0 = process.cpuUsage();
    const r = pass();
    const cpu = process.cpuUsage(cpu0);
    list.push({ ...r, seconds: (performance.now() - t) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6 });
  }
  list.sort((x, y) => x.seconds - y.seconds);
  return { ...list[Math.floor((list.length - 1) / 2)], bestSeconds: list[0].seconds };
}

export async function main(args: string[]): Promise<void> {
  const parsed = parseArgs(args);
  if (!parsed) return;
  const { mb, seed, runs, corpora, settings, labels, against: againstPath } = parsed;
  // --against FILE: another checkout's fingerprinter.ts (e.g. from `git worktree add /tmp/old COMMIT`), timed in turn with this one.
  const against = againstPath
    ? ((await import(pathToFileURL(resolve(againstPath)).href)) as { createFingerprinter: typeof createFingerprinter }).createFingerprinter
    : null;
  console.log(
    `node ${process.version}, one thread, median of ${runs} passes; load average ${(await import('node:os')).loadavg()[0].toFixed(1)} ` +
      '(MB/s per CPU-second discounts time the thread was not running)',
  );
  for (const name of corpora) {
    let corpus: Corpus;
    if (name === 'real') {
      try {
        corpus = realCorpus();
      } catch (error) {
        if (!(error instanceof MissingLinuxDocError)) throw error;
        console.error(`${error.message}: the real-text corpus needs the kernel documentation; run: apt-get install linux-doc`);
        process.exitCode = 1;
        continue;
      }
    } else if (name === 'generated') corpus = generatedCorpus(mb, seed);
    else throw new Error(`--corpus: unknown corpus ${name} (real, generated)`);
    console.log(corpus.describe);
    const { docs, bytes } = corpus;
    for (let s = 0; s < settings.length; s++) {
      let options: FingerprinterOptions = {};
      let dfSeconds = 0;
      if (settings[s].weights === 'tfidf') {
        // TF-IDF needs corpus document frequencies first: a separate pass, timed separately.
        const base = createFingerprinter({ ...settings[s], weights: 'binary' }, options);
        const t = performance.now();
        const counter = createDocumentFrequencyCounter();
        for (const d of docs) counter.add(base.featureSet(d));
        options = { ...options, documentFrequencies: counter.result() };
        dfSeconds = (performance.now() - t) / 1000;
      }
      const fps = [createFingerprinter(settings[s], options)];
      if (against) fps.push(against(settings[s], options));
      const results = timePasses(fps, docs, runs);
      const extra = dfSeconds ? `  (+ document-frequency pass ${(bytes / 1e6 / dfSeconds).toFixed(1)} MB/s)` : '';
      results.forEach((p, k) => {
        const label = `${k === 0 ? '' : 'against '}${labels[s]}`;
        const ratio = k === 0 ? '' : `  this code: ${(p.seconds / results[0].seconds).toFixed(2)}x as fast (fastest passes ${(p.bestSeconds / results[0].bestSeconds).toFixed(2)}x)`;
        console.log(
          `  ${label.padEnd(19)} ${(bytes / 1e6 / p.seconds).toFixed(1).padStart(7)} MB/s ` +
            `${(p.features / 1e6 / p.seconds).toFixed(1).padStart(6)} M features/s  ${p.seconds.toFixed(2)} s wall ` +
            `(best pass ${(bytes / 1e6 / p.bestSeconds).toFixed(1)} MB/s), ` +
            `${(bytes / 1e6 / p.cpuSeconds).toFixed(1)} MB/s per CPU-second  checksum ${p.checksum.toString(16).padStart(8, '0')}  ` +
            `too-short ${p.tooShort}${k === 0 ? extra : ratio}`,
        );
      });
      if (settings[s].weights !== 'tfidf') {
        // The worker's path: file bytes to content hash and fingerprint (MB/s of file bytes).
        const fileBytes = corpus.files.reduce((sum, f) => sum + f.bytes.length, 0);
        const p = await timeFromBytes(fps[0], corpus.files, runs);
        console.log(
          `  ${`${labels[s]} from bytes`.padEnd(19)} ${(fileBytes / 1e6 / p.seconds).toFixed(1).padStart(7)} MB/s ` +
            `${(p.features / 1e6 / p.seconds).toFixed(1).padStart(6)} M features/s  ${p.seconds.toFixed(2)} s wall ` +
            `(best pass ${(fileBytes / 1e6 / p.bestSeconds).toFixed(1)} MB/s), ${(fileBytes / 1e6 / p.cpuSeconds).toFixed(1)} MB/s per CPU-second ` +
            `(normalizedUtf8 + XXH64 content hash + fingerprintNormalized)  too-short ${p.tooShort}`,
        );
      }
    }
  }
}
