/**
 * The Parquet-decoding thread's API (cli/parquet.thread.ts): reads a checked input file and decodes it
 * with hyparquet, off the CLI's main thread, so a damaged file that sends the decoder into a loop
 * cannot stop the command or its signal handlers (the client, cli/read-input.ts, gives it a time
 * limit). Results cross as plain records, typed arrays transferred; a UsageError crosses as its message.
 */
import { transfer } from 'comlink';
import { UsageError } from './cli-common.ts';
import type { FingerprintInput } from './fingerprint-input.ts';
import { parseFingerprintParquet } from './fingerprint-parquet-input.ts';
import { readNamedFile, type NamedFile } from './input-files.ts';
import { parsePairsParquet, type PairsInput } from './pairs-input.ts';

/** A decode's result, or why it failed: `usage` for bad input (exit 2), otherwise an unexpected failure. */
export type Decoded<T> = { ok: true; value: T } | { ok: false; usage: boolean; message: string };

async function decoded<T>(decode: () => Promise<T>, buffers: (value: T) => ArrayBufferLike[]): Promise<Decoded<T>> {
  try {
    const value = await decode();
    return transfer({ ok: true, value }, buffers(value) as Transferable[]);
  } catch (error) {
    return { ok: false, usage: error instanceof UsageError, message: error instanceof Error ? error.message : String(error) };
  }
}

export const parquetDecodeApi = {
  /** Answers once the thread has loaded its code, so the time limit covers decoding only. */
  ready(): true {
    return true;
  },
  /** The fingerprints of a checked Parquet export (`pairs FILE`), with each row's path when `withPaths`. */
  fingerprints(file: NamedFile, withPaths: boolean): Promise<Decoded<FingerprintInput>> {
    return decoded(
      async () => parseFingerprintParquet(await readNamedFile(file), file.given, withPaths),
      (v) => [v.hi.buffer, v.lo.buffer, ...(v.rows ? [v.rows.buffer] : [])],
    );
  },
  /** The pairs of a checked pairs Parquet (`scan --pairs FILE`). */
  pairs(file: NamedFile): Promise<Decoded<PairsInput>> {
    return decoded(async () => parsePairsParquet(await readNamedFile(file, '--pairs '), file.given), (v) => [v.distance.buffer]);
  },
};

export type ParquetDecodeApi = typeof parquetDecodeApi;
