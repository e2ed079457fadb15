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
import { DocStatus, MAX_DOCUMENT_BYTES, skipMessage } from '../core/documents/document-status.ts';
import { installDocumentFrequencies } from '../scan/document-frequency-pass.ts';
import { readUpTo } from '../scan/read-file-bytes.ts';
import type { IngestBatchResult, IngestItem } from '../workers/ingest-protocol.ts';
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
/** A batch closes at this many files or bytes: enough to amortize a message, small enough to spread over the threads. */
const BATCH_FILES = 64;
const BATCH_BYTES = 4 * 1024 * 1024;

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

    // Batches are cut by the files' sizes (known from stat), read here (Node cannot post a
    // file-backed Blob) and fingerprinted by the threads; lines come out in the order given.
    type Batch = { start: number; end: number; result: IngestBatchResult | null; sent: number[] };
    const batches: Promise<Batch>[] = [];
    let next = 0;
    const runBatch = async (start: number, end: number): Promise<Batch> => {
      const items: IngestItem[] = [];
      const buffers: ArrayBuffer[] = [];
      const sent: number[] = [];
      for (let i = start; i < end; i++) {
        if (files[i].size > MAX_DOCUMENT_BYTES) continue; // reported as too large below, never read
        const read = await readUpTo(files[i], MAX_DOCUMENT_BYTES);
        if (read.kind === 'error') throw new UsageError(`cannot read ${JSON.stringify(paths[i])}: ${read.message}`);
        if (read.kind === 'large') continue;
        items.push({ name: paths[i], bytes: read.bytes });
        buffers.push(read.bytes.buffer as ArrayBuffer);
        sent.push(i);
      }
      const result = items.length > 0 ? await pool.run(signal, (api) => api.ingestBatch(transfer(items, buffers), settings)) : null;
      return { start, end, result, sent };
    };
    const fill = () => {
      while (batches.length < pool.size * 2 && next < paths.length) {
        const start = next;
        let bytes = 0;
        while (next < paths.length && next - start < BATCH_FILES && (next === start || bytes + files[next].size <= BATCH_BYTES)) bytes += files[next++].size;
        batches.push(runBatch(start, next));
      }
    };
    fill();
    while (batches.length > 0) {
      const { start, end, result, sent } = await batches.shift()!;
      fill();
      const slot = new Map(sent.map((doc, j) => [doc, j]));
      const reasons = new Map(result?.skipped.map((s) => [s.index, s.message]));
      for (let i = start; i < end; i++) {
        const path = escapeLineBreaks(paths[i]);
        const j = slot.get(i);
        if (j !== undefined && result!.status[j] === DocStatus.ok) {
          await write(io.stdout, `${toHex(result!.hi[j], result!.lo[j])}  ${path}\n`);
          continue;
        }
        const reason = j === undefined ? skipMessage('too-large', `${(files[i].size / (1024 * 1024)).toFixed(1)} MB`) : (reasons.get(j) ?? 'no fingerprint');
        await write(io.stderr, `${path}: ${reason}\n`);
        await write(io.stdout, `-  ${path}\n`);
      }
    }
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
