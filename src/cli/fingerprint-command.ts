/**
 * `simsift fingerprint FILE|DIR...`: one line per file, the 64-bit SimHash as 16 lowercase hex digits,
 * two spaces and the path as given; `-` instead of the hex for a file without a fingerprint (binary,
 * too short, empty, too large, unreadable), with the reason on stderr. A DIR stands for the files
 * under it (walked as `simsift scan` walks it). With `--format parquet --out FILE` the rows go to the
 * Parquet export instead (fingerprint-parquet-sink.ts). The files go through the app's ingest worker
 * API on every core (worker threads), so a fingerprint here is the app's fingerprint.
 */
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { posix } from 'node:path';
import { toHex } from '../core/simhash/fingerprint64.ts';
import { DocStatus, formatOfFlags } from '../core/documents/document-status.ts';
import { fingerprintStatusOf } from '../core/export/fingerprints-parquet.ts';
import { installDocumentFrequencies } from '../scan/document-frequency-pass.ts';
import { createNodeScanWorkers } from './node-scan-workers.ts';
import { createFingerprintParquetSink, type FingerprintParquetSink, type FingerprintRow } from './fingerprint-parquet-sink.ts';
import { walkFiles } from './walk-files.ts';
import { refuseOutputsOverInputs } from './output-places.ts';
import { flushStream, openAtomicFile, outputError, type AtomicFile } from './atomic-file.ts';
import { escapeName, fsPath } from './terminal-names.ts';
import { defaultThreads, MAX_THREADS, parseOptions, parseThreads } from './cli-options.ts';
import {
  errorCode,
  processIo,
  reportFailure,
  SETTINGS_OPTIONS,
  SETTINGS_USAGE,
  settingsFromOptions,
  UsageError,
  write,
  type CliIo,
} from './cli-common.ts';

const USAGE = `usage: simsift fingerprint FILE|DIR... [--format text|parquet] [--out FILE] ${SETTINGS_USAGE} [--threads T]`;
/** `simsift fingerprint`'s options (cli-options.ts reads them). */
const FINGERPRINT_OPTIONS = { format: { type: 'string' }, out: { type: 'string' }, threads: { type: 'string' }, ...SETTINGS_OPTIONS } as const;
/** A batch has at most this many files: enough to amortize a message, few enough that lines come out steadily. */
const BATCH_FILES = 256;

/** One file's outcome, kept until every file before it is done (output follows the order given). */
type Outcome = FingerprintRow & { reason?: string };

/**
 * Runs `batch(start, end)` over the files [0, count) in consecutive ranges of at most BATCH_FILES
 * (smaller when there are few files, so every thread gets several), with two batches per thread in
 * flight; resolves when all are done, rejects with the first failure.
 */
async function feedPaths(count: number, threads: number, batch: (start: number, end: number) => Promise<void>): Promise<void> {
  const size = Math.max(1, Math.min(BATCH_FILES, Math.ceil(count / (threads * 4))));
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const start = next;
      next = Math.min(count, start + size);
      await batch(start, next);
    }
  };
  await Promise.all(Array.from({ length: threads * 2 }, lane));
}

/**
 * Runs `simsift fingerprint` with the arguments after the subcommand name; returns the exit code
 * (0 even when some files are binary or too short: they are reported; 2 for bad arguments, an
 * unreadable FILE or an unwritable --out; 1 for an unexpected failure). With --weights tfidf the
 * given files are the corpus.
 */
export async function runFingerprint(argv: string[], io: CliIo = processIo): Promise<number> {
  let workers: ReturnType<typeof createNodeScanWorkers> | null = null;
  let output: AtomicFile | undefined;
  try {
    const parsed = parseOptions(argv, FINGERPRINT_OPTIONS, USAGE);
    if (parsed === 'help') {
      await write(io.stdout, `${USAGE}\n  --threads T      fingerprinting threads, 1..${MAX_THREADS} (default: one per core)\n`);
      return 0;
    }
    const { values, positionals: args } = parsed;
    const settings = settingsFromOptions(values);
    const format = values.format ?? 'text';
    if (format !== 'text' && format !== 'parquet') throw new UsageError(`--format must be text or parquet (got ${JSON.stringify(format)})`);
    const outPath = values.out;
    const threads = parseThreads(values.threads) ?? defaultThreads();
    if (args.length === 0) throw new UsageError(`missing FILE. ${USAGE}`);
    if (format === 'parquet' && outPath === undefined) throw new UsageError('--format parquet needs --out FILE');
    // Every FILE must be readable, and --out writable, before anything is printed.
    const isDir: boolean[] = [];
    // Paths that are not regular files (FIFOs, devices): never opened, a `-` line each (the ingest threads refuse them too).
    const notRegular = new Set<string>();
    for (const arg of args) {
      try {
        const info = await stat(arg);
        isDir.push(info.isDirectory());
        if (!info.isDirectory() && !info.isFile()) notRegular.add(arg);
      } catch (error) {
        throw new UsageError(`cannot read ${JSON.stringify(arg)} (${errorCode(error)})`);
      }
    }
    // Never over a file this command reads (a FILE, or a file under a DIR).
    await refuseOutputsOverInputs(args, [['--out', outPath]]);
    // The output's temporary file is made now: an unwritable --out fails before any file is read.
    if (outPath !== undefined) {
      try {
        output = await openAtomicFile(outPath);
      } catch (error) {
        throw new UsageError(`cannot write --out ${outputError(JSON.stringify(outPath), error).message.replace(/^cannot write /, '')}`);
      }
    }
    // The threads start now (module load, WebAssembly, the fingerprinter) while this thread walks the folders.
    workers = createNodeScanWorkers(isDir.includes(true) ? threads : Math.min(threads, args.length));
    const warm = settings.weights === 'tfidf' ? Promise.resolve() : workers.ingest.broadcast(undefined, (api) => api.warmUp(settings)).catch(() => undefined);
    const paths: string[] = [];
    for (let a = 0; a < args.length; a++) {
      const arg = args[a];
      if (!isDir[a]) {
        paths.push(arg);
        continue;
      }
      // Files under a DIR that cannot be read become `-` lines (or rows), not errors; so do FIFOs and devices.
      const special: string[] = [];
      const regular = await walkFiles(
        arg,
        (path, message) => void write(io.stderr, `${escapeName(posix.join(arg, path))}: ${message}\n`).catch(() => undefined),
        undefined,
        (path) => {
          special.push(path);
          notRegular.add(posix.join(arg, path));
        },
      );
      const under = [...regular, ...special];
      for (const rel of under.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) paths.push(posix.join(arg, rel));
    }
    const parquet: FingerprintParquetSink | null = format === 'parquet' ? createFingerprintParquetSink(output!, settings) : null;
    const writeLines = (text: string) => (output ? output.write(text) : write(io.stdout, text));
    await warm;
    const pool = workers.ingest;
    const signal = new AbortController().signal;
    if (settings.weights === 'tfidf') {
      const files: File[] = [];
      // A FIFO or device stands as an empty file here (it is never opened); the threads give it its status.
      for (const path of paths) files.push(notRegular.has(path) ? new File([], path) : ((await openAsBlob(fsPath(path))) as File));
      await installDocumentFrequencies(workers, signal, { count: paths.length, files, paths }, settings, () => undefined);
    }

    // The threads read the files themselves (node-ingest-api.ts); output follows the order given, as
    // soon as each prefix of the files is done.
    const outcome = new Array<Outcome | undefined>(paths.length);
    let emitted = 0;
    const emit = async () => {
      let lines = '';
      let reasons = '';
      while (emitted < paths.length && outcome[emitted] !== undefined) {
        const o = outcome[emitted]!;
        const path = escapeName(paths[emitted]);
        if (o.reason !== undefined) reasons += `${path}: ${o.reason}\n`;
        if (parquet) parquet.add(paths[emitted], o);
        else lines += `${o.status === 'ok' ? toHex(o.hi, o.lo) : '-'}  ${path}\n`;
        outcome[emitted++] = undefined;
      }
      if (reasons) await write(io.stderr, reasons);
      if (lines) await writeLines(lines);
    };
    await feedPaths(paths.length, pool.size, async (start, end) => {
      const r = await pool.run(signal, (api) => api.ingestPaths(paths.slice(start, end), settings));
      const reasons = new Map(r.skipped.map((s) => [s.index, s.message]));
      for (let j = 0, d = start; d < end; j++, d++) {
        const status = fingerprintStatusOf(r.status[j], r.status[j] === DocStatus.ok ? d : -1);
        const ok = status === 'ok';
        outcome[d] = { status, hi: ok ? r.hi[j] : 0, lo: ok ? r.lo[j] : 0, hashHi: r.hashHi[j], hashLo: r.hashLo[j], words: r.words[j], format: formatOfFlags(r.flags[j]), reason: reasons.get(j) };
      }
      await emit();
    });
    await emit();
    parquet?.finish();
    if (output) await output.commit();
    else await flushStream(io.stdout);
    if (parquet) await write(io.stderr, `simsift fingerprint: ${parquet.rows} rows written to ${escapeName(outPath!)}\n`);
    return 0;
  } catch (error) {
    await output?.abort();
    return reportFailure('fingerprint', error, io);
  } finally {
    workers?.ingest.terminate();
    workers?.index.terminate();
  }
}
