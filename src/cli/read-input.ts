/**
 * Reading the fingerprints or pairs file a command names (`pairs FILE`, `scan --pairs FILE`): text is
 * parsed here, Parquet is decoded in a worker thread under a time limit (cli/parquet-decode-api.ts).
 * hyparquet can loop forever on a damaged page header (two single-byte flips of a 1.5 KB export did);
 * on the main thread that loop also starved the signal handlers, so neither SIGINT nor SIGTERM ended
 * the command. In a thread, the main thread stays free: a signal ends the command, and a decode past
 * its limit terminates the thread and is reported as a damaged file. The thread's bridge (comlink) and
 * the pairs parser (hyparquet) are loaded only when a file needs them, not by every text input.
 */
import type { Remote } from 'comlink';
import { UsageError } from './cli-common.ts';
import { isParquet, parseFingerprintLines, readHead, type FingerprintInput } from './fingerprint-input.ts';
import { namedRegularFile, readNamedFile, type NamedFile } from './input-files.ts';
import type { PairsInput } from './pairs-input.ts';
import { textInputBuffer } from './text-lines.ts';
import type { Decoded, ParquetDecodeApi } from './parquet-decode-api.ts';

/**
 * The time a decode of `bytes` bytes may take: 10 s plus 1 s per MB. hyparquet decodes SimSift's
 * exports at about 30 MB/s (10M fingerprints, 377 MB, in 11.8 s), so only a decoder that is stuck
 * reaches it, even on a loaded machine.
 */
function decodeLimitMs(bytes: number): number {
  return 10_000 + bytes / 1_000;
}

/**
 * Runs `decode` on `file` in a new Parquet thread (thread startup not counted in the limit) and stops
 * the thread after. Bad input is a UsageError naming the file; a decode past its limit too.
 */
async function decodeInThread<T>(file: NamedFile, decode: (api: Remote<ParquetDecodeApi>) => Promise<Decoded<T>>): Promise<T> {
  const [{ createWorkerBridge }, { spawnThread }] = await Promise.all([import('../workers/worker-bridge.ts'), import('./node-worker.ts')]);
  // execArgv: none of the parent's loader flags (tsx's CLI): thread-bootstrap.ts loads the thread's code.
  const bridge = createWorkerBridge<ParquetDecodeApi>(() => spawnThread(new URL('./parquet.thread.ts', import.meta.url), { execArgv: [] }));
  const limit = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  try {
    await bridge.call(undefined, (api) => api.ready());
    const ms = decodeLimitMs(file.size);
    timer = setTimeout(() => {
      const seconds = Math.round(ms / 1000);
      limit.abort(new UsageError(`${file.given}: a damaged Parquet file (not decoded within ${seconds} s: a page or header the decoder cannot get through)`));
    }, ms);
    const result = await bridge.call(limit.signal, decode);
    if (result.ok) return result.value;
    throw result.usage ? new UsageError(result.message) : new Error(result.message);
  } finally {
    clearTimeout(timer);
    bridge.terminate();
  }
}

/**
 * Reads a checked text or Parquet fingerprint file (and its paths, with `withPaths`); bad input is a
 * UsageError naming the file (and line). With `shared`, a text file's fingerprints are parsed into
 * SharedArrayBuffers (worker threads then read them without a copy).
 */
export async function readFingerprintFile(file: NamedFile, withPaths = false, shared = false): Promise<FingerprintInput> {
  if (isParquet(await readHead(file))) return decodeInThread(file, (api) => api.fingerprints(file, withPaths));
  // Without paths, read into the text kernel's memory, where its lines are parsed without a copy.
  const bytes = await readNamedFile(file, '', withPaths ? undefined : textInputBuffer);
  return { format: 'text', ...parseFingerprintLines(bytes, file.given, withPaths, shared) };
}

/** Reads a pairs file (Parquet by its first bytes, else text): a regular file only, never a FIFO or a device. */
export async function readPairsFile(path: string): Promise<PairsInput> {
  const file = await namedRegularFile(path, '--pairs ');
  if (isParquet(await readHead(file))) return decodeInThread(file, (api) => api.pairs(file));
  const bytes = await readNamedFile(file, '--pairs ');
  const { parsePairLines } = await import('./pairs-input.ts');
  return { format: 'text', ...parsePairLines(bytes.toString('utf8'), path), recorded: {} };
}
