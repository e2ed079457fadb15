/**
 * Where `simsift pairs` writes its pairs: text lines (`i j distance`, with --paths the two escaped
 * paths) to stdout or an --out file, or the Parquet pairs file; an --out file is whole or absent.
 */
import type { createPairsParquetWriter } from '../core/export/pairs-parquet.ts';
import type { PairList } from '../core/index/pair-list.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { SIMSIFT_VERSION } from '../core/version.ts';
import { flushStream, openAtomicFile, outputError, writeStream, type AtomicFile } from './atomic-file.ts';
import { UsageError } from './cli-common.ts';
import { escapeName } from './terminal-names.ts';
import { pairLineBytes } from './text-lines.ts';

/**
 * Opens --out now (atomic-file.ts: a temporary file beside it, renamed over it when complete), so a bad
 * path fails before any work and an earlier file at that path stays until the new one is whole.
 */
export async function openOutput(path: string): Promise<AtomicFile> {
  try {
    return await openAtomicFile(path);
  } catch (error) {
    throw new UsageError(`cannot write --out ${outputError(JSON.stringify(path), error).message.replace(/^cannot write /, '')}`);
  }
}

/** Where the pairs go, in (i, j) order, a list at a time: text lines, or the Parquet pairs file. */
export interface PairOutput {
  /** The fingerprints' settings, for the Parquet file's metadata (known once the input is opened). */
  settings: SimHashSettings | undefined;
  write(pairs: PairList, paths?: PairPaths): Promise<void>;
  /** Everything written (the Parquet footer) and the file committed, or stdout flushed. */
  finish(): Promise<void>;
  /** After a failure: removes the unfinished file (nothing after `finish`). */
  close(): Promise<void>;
}

/** Text lines to the --out file (committed by `finish`) or to stdout. */
export function textOutput(file: AtomicFile | null, stdout: NodeJS.WritableStream): PairOutput {
  return {
    settings: undefined,
    write: (pairs, paths) => writePairs(pairs, (text) => (file ? file.write(text) : writeStream(stdout, text)), paths),
    finish: () => (file ? file.commit() : flushStream(stdout)),
    close: async () => file?.abort(),
  };
}

/** Pairs per Parquet row group (DuckDB hands out 2,048 at a time: too small a group to read back fast). */
const PARQUET_ROW_GROUP = 65_536;

/**
 * The Parquet pairs file, written by the core writer from the pairs as they come, whichever engine
 * found them: one schema and one metadata writer for both, the same bytes from either engine, and
 * the pairs never all in memory at once when DuckDB streams them.
 */
export function parquetOutput(file: AtomicFile, k: number): PairOutput {
  let writer: ReturnType<typeof createPairsParquetWriter> | null = null;
  const batch = { i: new Uint32Array(PARQUET_ROW_GROUP), j: new Uint32Array(PARQUET_ROW_GROUP), distance: new Uint8Array(PARQUET_ROW_GROUP), pathA: [] as string[], pathB: [] as string[], count: 0 };
  const output: PairOutput = {
    settings: undefined,
    async write(pairs, paths) {
      // Opened at the first pairs: by then the input, and its recorded settings, have been read. The
      // writer (hyparquet-writer) is loaded here, so text output never loads it.
      writer ??= (await import('../core/export/pairs-parquet.ts')).createPairsParquetWriter({ k, settings: output.settings, version: SIMSIFT_VERSION }, (chunk) => file.writeSync(chunk));
      for (let p = 0; p < pairs.count; p++) {
        const r = batch.count++;
        batch.i[r] = pairs.a[p];
        batch.j[r] = pairs.b[p];
        batch.distance[r] = pairs.distance[p];
        batch.pathA.push(paths!.a(p));
        batch.pathB.push(paths!.b(p));
        if (batch.count === PARQUET_ROW_GROUP) flush();
      }
    },
    async finish() {
      if (!writer) await output.write({ a: new Uint32Array(0), b: new Uint32Array(0), distance: new Uint8Array(0), count: 0 });
      flush();
      writer!.finish();
      await file.commit();
    },
    close: () => file.abort(),
  };
  const flush = () => {
    writer!.write(batch);
    batch.count = 0;
    batch.pathA = [];
    batch.pathB = [];
  };
  return output;
}

/** The two paths of pair i (by its position in the list being written). */
export interface PairPaths {
  a(i: number): string;
  b(i: number): string;
}

/**
 * Writes `i j distance` lines in chunks of many pairs, each awaited (a file, or stdout drained). A
 * reader that goes away (EPIPE, e.g. `| head`) rejects with BrokenPipeError, which ends the command
 * quietly; any other write error rejects with a one-line OutputError.
 */
async function writePairs(pairs: PairList, write: (chunk: string | Uint8Array) => Promise<void>, paths?: PairPaths): Promise<void> {
  const CHUNK = 32768;
  for (let start = 0; start < pairs.count; start += CHUNK) {
    const end = Math.min(pairs.count, start + CHUNK);
    if (paths) {
      let text = '';
      for (let i = start; i < end; i++) {
        text += `${pairs.a[i]} ${pairs.b[i]} ${pairs.distance[i]}\t${escapePath(paths.a(i))}\t${escapePath(paths.b(i))}\n`;
      }
      await write(text);
    } else {
      // Digits written as bytes, in the text kernel: a string per line cost 4x the CPU in a one-shot run.
      await write(pairLineBytes(pairs, start, end));
    }
  }
}

/**
 * A path as one tab-separated field, safe on a terminal: backslash, tab, newline and CR escaped, and
 * every other control, bidirectional control and invalid byte too (terminal-names.ts `escapeName`).
 */
export function escapePath(path: string): string {
  return escapeName(path);
}
