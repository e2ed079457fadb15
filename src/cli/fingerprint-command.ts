/**
 * `simsift fingerprint FILE...`: one line per file, the 64-bit SimHash as 16 lowercase hex digits,
 * two spaces and the path as given; `-` instead of the hex for a file without a fingerprint (binary,
 * too short, empty, too large), with the reason on stderr. The files go through the app's ingest
 * worker API on every core (worker threads), so a fingerprint here is the app's fingerprint.
 */
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { transfer } from 'comlink';
import { toHex } from '../core/simhash/fingerprint64.ts';
import { DocStatus, skipMessage } from '../core/documents/document-status.ts';
import { installDocumentFrequencies } from '../scan/document-frequency-pass.ts';
import { feedFiles } from '../scan/batch-feeder.ts';
import { createNodeScanWorkers } from './node-scan-workers.ts';
import {
  defaultSettings,
  errorCode,
  escapeLineBreaks,
  parseSettingsOption,
  processIo,
  SETTINGS_USAGE,
  UsageError,
  write,
  type CliIo,
} from './cli-common.ts';

const USAGE = `usage: simsift fingerprint FILE... ${SETTINGS_USAGE} [--threads T]`;
const MAX_THREADS = 16;
/** A batch closes at this many files: enough to amortize a message, few enough that lines come out steadily. */
const BATCH_FILES = 64;

/**
 * Runs `simsift fingerprint` with the arguments after the subcommand name; returns the exit code
 * (0 even when some files are binary or too short: they are reported; 2 for bad arguments or an
 * unreadable FILE; 1 for an unexpected failure). With --weights tfidf the given files are the corpus.
 */
export async function runFingerprint(argv: string[], io: CliIo = processIo): Promise<number> {
  let workers: ReturnType<typeof createNodeScanWorkers> | null = null;
  try {
    const settings = defaultSettings();
    const paths: string[] = [];
    let threads = Math.min(MAX_THREADS, availableParallelism());
    let optionsEnded = false;
    for (let i = 0; i < argv.length; i++) {
      const arg = argv[i];
      if (!optionsEnded && (arg === '--help' || arg === '-h')) {
        await write(io.stdout, `${USAGE}\n  --threads T      fingerprinting threads, 1..${MAX_THREADS} (default: one per core)\n`);
        return 0;
      }
      if (!optionsEnded && arg === '--') {
        optionsEnded = true;
        continue;
      }
      if (!optionsEnded && arg.startsWith('-') && arg !== '-') {
        if (arg === '--threads' || arg.startsWith('--threads=')) {
          const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
          if (value === undefined || !/^\d{1,2}$/.test(value) || Number(value) < 1 || Number(value) > MAX_THREADS) {
            throw new UsageError(`--threads must be an integer in 1..${MAX_THREADS} (got ${JSON.stringify(value ?? '')})`);
          }
          threads = Number(value);
          continue;
        }
        const last = parseSettingsOption(argv, i, settings);
        if (last < 0) throw new UsageError(`unknown option ${JSON.stringify(arg)}. ${USAGE}`);
        i = last;
        continue;
      }
      paths.push(arg);
    }
    if (paths.length === 0) throw new UsageError(`missing FILE. ${USAGE}`);
    // Every FILE must be readable before anything is printed.
    const files: File[] = [];
    for (const path of paths) {
      let info;
      try {
        info = await stat(path);
      } catch (error) {
        throw new UsageError(`cannot read ${JSON.stringify(path)} (${errorCode(error)})`);
      }
      if (info.isDirectory()) throw new UsageError(`${JSON.stringify(path)} is a directory (use simsift scan DIR)`);
      files.push((await openAsBlob(path)) as File);
    }

    workers = createNodeScanWorkers(Math.min(threads, paths.length));
    const pool = workers.ingest;
    const signal = new AbortController().signal;
    if (settings.weights === 'tfidf') {
      await installDocumentFrequencies(workers, signal, { count: paths.length, files, paths }, settings, () => undefined);
    }

    // The app's feeder reads the files (Node cannot post a file-backed Blob) and batches them to the
    // threads; lines come out in the order the files were given, as soon as each prefix is done.
    const line = new Array<string | undefined>(paths.length);
    const reason = new Array<string | undefined>(paths.length);
    let printed = 0;
    const print = async () => {
      let out = '';
      let err = '';
      while (printed < paths.length && line[printed] !== undefined) {
        const path = escapeLineBreaks(paths[printed]);
        out += `${line[printed]}  ${path}\n`;
        if (reason[printed] !== undefined) err += `${path}: ${reason[printed]}\n`;
        printed++;
      }
      if (err) await write(io.stderr, err);
      if (out) await write(io.stdout, out);
    };
    const noPrint = (d: number, why: string) => {
      line[d] = '-';
      reason[d] = why;
    };
    await feedFiles(
      files,
      paths,
      {
        send: async ({ ids, items, buffers }) => {
          const result = await pool.run(signal, (api) => api.ingestBatch(transfer(items, buffers), settings));
          const reasons = new Map(result.skipped.map((s) => [s.index, s.message]));
          ids.forEach((d, j) => {
            if (result.status[j] === DocStatus.ok) line[d] = toHex(result.hi[j], result.lo[j]);
            else noPrint(d, reasons.get(j) ?? 'no fingerprint');
          });
          await print();
        },
        unreadable: (d, message) => noPrint(d, skipMessage('unreadable', message)),
        tooLarge: (d, size) => noPrint(d, skipMessage('too-large', `${(size / (1024 * 1024)).toFixed(1)} MB`)),
      },
      { readLimit: workers.readLimit, maxInFlight: pool.size * 2, signal, batchFiles: BATCH_FILES, readConcurrency: 16 },
    );
    await print();
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`simsift fingerprint: ${error.message}\n`);
      return 2;
    }
    io.stderr.write(`simsift fingerprint: failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    workers?.ingest.terminate();
    workers?.index.terminate();
  }
}
