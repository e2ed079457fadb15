/**
 * Owns how the CLI writes its outputs, so each is whole or absent: a file (CSV, pairs, Parquet,
 * fingerprints, plans) is written to a temporary file beside its target and renamed over it only when
 * complete and flushed; a write error, a full disk or a signal (SIGINT, SIGTERM, SIGHUP) removes the
 * temporary file and leaves the target as it was. Streams (stdout) are written with their errors
 * caught: a reader that went away (EPIPE, `| head`) ends the output quietly, any other error is one
 * line instead of an uncaught stack trace.
 *
 * Every CLI writer goes through `openAtomicFile` (or `writeAtomicFile`) and `writeStream`.
 */
import { closeSync, constants, unlinkSync, writeSync } from 'node:fs';
import { access, open, realpath, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Eight hex digits that make a temporary name unlikely to meet another run's: not a secret (the file is
 * created exclusively, so a name taken fails the write, never follows a link), hence Math.random and
 * not node:crypto, whose 18 internal modules every command writing a file would load for these 4 bytes.
 */
function tempSuffix(): string {
  return Math.floor(Math.random() * 2 ** 32).toString(16).padStart(8, '0');
}

/** A file or stream could not be written; the message is one line naming it and the reason. */
export class OutputError extends Error {}

/** The reader of a stream went away (EPIPE): the command stops writing and ends quietly. */
export class BrokenPipeError extends Error {
  constructor() {
    super('the reader closed the pipe');
  }
}

/** "ENOSPC: no space left on device"-style reason of a failed write, for one-line messages. */
function reason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (typeof e?.code === 'string') {
    // Node's messages read "ENOSPC: no space left on device, write": keep the code and the words.
    const words = typeof e.message === 'string' ? /^[A-Z0-9_]+: ([^,]+)/.exec(e.message)?.[1] : undefined;
    return words ? `${e.code}: ${words}` : e.code;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The one-line error for `what` (a file name, or "stdout") failing with `error`. */
export function outputError(what: string, error: unknown): OutputError {
  return error instanceof OutputError ? error : new OutputError(`cannot write ${what} (${reason(error)})`);
}

/** An output being written. Nothing is at `target` (or the earlier file still is) until `commit`. */
export interface AtomicFile {
  /** The path the output gets (as given). */
  readonly target: string;
  /** Where the bytes go meanwhile: a hidden file beside the target (the target itself when it is not a regular file). */
  readonly tempPath: string;
  /** Appends text (UTF-8) or bytes; rejects with an OutputError when the write fails. */
  write(chunk: string | Uint8Array): Promise<void>;
  /** Appends synchronously, for writers with a synchronous sink (the Parquet writers); throws an OutputError. */
  writeSync(chunk: string | Uint8Array): void;
  /** Flushes (fsync), closes and renames the file over the target: from here on the target is the new file. */
  commit(): Promise<void>;
  /** Closes and removes the temporary file; the target is untouched. Safe to call twice and after `commit`. */
  abort(): Promise<void>;
}

/** What a signal must clean up: every output open in this process. */
type Pending = { fd: () => number | undefined; temp: string | null; target: string };
const pending = new Set<Pending>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const SIGNAL_CODES: Record<(typeof SIGNALS)[number], number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/**
 * A signal while an output is open: its temporary file is removed synchronously (nothing else may run
 * first), one line says so, and the process exits with 128 + the signal's number, as a shell reports it.
 */
function onSignal(signal: (typeof SIGNALS)[number]): void {
  const targets: string[] = [];
  for (const p of pending) {
    try {
      const fd = p.fd();
      if (fd !== undefined) closeSync(fd);
    } catch {
      // already closed
    }
    if (p.temp !== null) {
      try {
        unlinkSync(p.temp);
      } catch {
        // already gone
      }
    }
    targets.push(JSON.stringify(p.target));
  }
  pending.clear();
  process.stderr.write(`simsift: interrupted by ${signal}; ${targets.join(', ')} not written (left as ${targets.length === 1 ? 'it was' : 'they were'})\n`);
  process.exit(SIGNAL_CODES[signal]);
}
const handlers = new Map(SIGNALS.map((s) => [s, () => onSignal(s)]));

function track(p: Pending): void {
  if (pending.size === 0) for (const [signal, handler] of handlers) process.on(signal, handler);
  pending.add(p);
}

function untrack(p: Pending): void {
  if (!pending.delete(p) || pending.size > 0) return;
  for (const [signal, handler] of handlers) process.off(signal, handler);
}

const encoder = new TextEncoder();
const bytesOf = (chunk: string | Uint8Array) => (typeof chunk === 'string' ? encoder.encode(chunk) : chunk);

/**
 * Opens an output at `target`: creates its temporary file now, so an unwritable place fails before any
 * work (a missing folder, no permission, a target that is a folder or read-only). A target that exists
 * and is not a regular file (a device such as /dev/null, a FIFO, /dev/stdout) is written in place, as
 * nothing can be renamed over it. A symbolic link is followed: the file it points to is replaced.
 */
export async function openAtomicFile(target: string): Promise<AtomicFile> {
  let existing;
  try {
    existing = await stat(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw outputError(JSON.stringify(target), error);
  }
  if (existing?.isDirectory()) throw new OutputError(`cannot write ${JSON.stringify(target)} (it is a directory)`);
  const inPlace = existing !== undefined && !existing.isFile();
  let path = target;
  let temp: string | null = null;
  let handle: FileHandle;
  try {
    if (inPlace) {
      handle = await open(target, 'w');
    } else {
      if (existing) {
        // A read-only target stays protected, as when it was opened for writing in place.
        await access(target, constants.W_OK);
        path = await realpath(target);
      }
      temp = join(dirname(path), `.${basename(path)}.${process.pid}-${tempSuffix()}.simsift-tmp`);
      handle = await open(temp, 'wx', existing ? existing.mode & 0o7777 : 0o666);
      if (existing) await handle.chmod(existing.mode & 0o7777);
    }
  } catch (error) {
    throw outputError(JSON.stringify(target), error);
  }
  let fd: number | undefined = handle.fd;
  let done = false;
  const entry: Pending = { fd: () => fd, temp, target };
  track(entry);
  const fail = async (error: unknown): Promise<never> => {
    await abort();
    throw outputError(JSON.stringify(target), error);
  };
  async function abort(): Promise<void> {
    if (done) return;
    done = true;
    untrack(entry);
    fd = undefined;
    await handle.close().catch(() => undefined);
    if (temp !== null) await unlink(temp).catch(() => undefined);
  }
  return {
    target,
    tempPath: temp ?? target,
    async write(chunk) {
      if (done) throw new OutputError(`cannot write ${JSON.stringify(target)} (already closed)`);
      const bytes = bytesOf(chunk);
      try {
        // FileHandle.write may write part of the buffer (a full disk, a signal): write the rest.
        for (let at = 0; at < bytes.length; ) at += (await handle.write(bytes, at, bytes.length - at)).bytesWritten;
      } catch (error) {
        await fail(error);
      }
    },
    writeSync(chunk) {
      if (done || fd === undefined) throw new OutputError(`cannot write ${JSON.stringify(target)} (already closed)`);
      const bytes = bytesOf(chunk);
      try {
        for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
      } catch (error) {
        void abort();
        throw outputError(JSON.stringify(target), error);
      }
    },
    async commit() {
      if (done) throw new OutputError(`cannot write ${JSON.stringify(target)} (already closed)`);
      try {
        // A device or FIFO written in place cannot always be flushed (EINVAL); its writes have succeeded.
        await handle.sync().catch((error: NodeJS.ErrnoException) => {
          if (!inPlace || (error.code !== 'EINVAL' && error.code !== 'ENOTSUP')) throw error;
        });
        fd = undefined;
        await handle.close();
        if (temp !== null) {
          await rename(temp, path);
          await syncDirectory(dirname(path));
        }
      } catch (error) {
        await fail(error);
      }
      done = true;
      untrack(entry);
    },
    abort,
  };
}

/** Makes a rename durable: the folder's entry is flushed too (ignored where a folder cannot be). */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on a folder; the rename itself has happened.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Writes `chunks` to `target` as one atomic output: the target is replaced only when every chunk is
 * written and flushed; any failure removes the temporary file and rejects with an OutputError.
 */
export async function writeAtomicFile(target: string, chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>): Promise<void> {
  const file = await openAtomicFile(target);
  try {
    for await (const chunk of chunks) await file.write(chunk);
    await file.commit();
  } catch (error) {
    await file.abort();
    throw outputError(JSON.stringify(target), error);
  }
}

/** Errors a stream has emitted (kept so that the next write reports them instead of crashing the process). */
const streamErrors = new WeakMap<NodeJS.WritableStream, Error | null>();

/**
 * Catches a stream's errors from now on: an 'error' event with no listener would end the process with
 * a stack trace; the error is kept and the next `writeStream` or `flushStream` rejects with it.
 */
export function guardStream(stream: NodeJS.WritableStream): void {
  if (streamErrors.has(stream)) return;
  streamErrors.set(stream, null);
  stream.on('error', (error: Error) => {
    if (!streamErrors.get(stream)) streamErrors.set(stream, error);
  });
}

/** The error of a failed stream write: BrokenPipeError for EPIPE, else an OutputError naming `what`. */
function streamError(error: unknown, what: string): Error {
  return (error as NodeJS.ErrnoException)?.code === 'EPIPE' ? new BrokenPipeError() : outputError(what, error);
}

/**
 * Writes text to a stream (stdout, stderr), waiting for it to drain when its buffer is full. Rejects
 * with BrokenPipeError when the reader went away and with an OutputError (one line) on any other
 * failure, e.g. stdout on a full disk.
 */
export function writeStream(stream: NodeJS.WritableStream, text: string | Uint8Array, what = 'stdout'): Promise<void> {
  guardStream(stream);
  const earlier = streamErrors.get(stream);
  if (earlier) return Promise.reject(streamError(earlier, what));
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      stream.off('drain', onDrain);
      stream.off('error', onError);
      if (error) reject(streamError(error, what));
      else resolve();
    };
    const onDrain = () => settle();
    const onError = (error: Error) => settle(error);
    stream.on('error', onError);
    const ok = stream.write(text, (error) => {
      if (error) settle(error);
    });
    if (ok) settle();
    else stream.on('drain', onDrain);
  });
}

/** Resolves once everything written to `stream` so far has been handed to the system (rejects as `writeStream`). */
export function flushStream(stream: NodeJS.WritableStream, what = 'stdout'): Promise<void> {
  guardStream(stream);
  const earlier = streamErrors.get(stream);
  if (earlier) return Promise.reject(streamError(earlier, what));
  return new Promise((resolve, reject) => {
    // Write callbacks run in order: an empty write's callback runs after every earlier write's.
    stream.write('', (error) => (error ? reject(streamError(error, what)) : resolve()));
  });
}
