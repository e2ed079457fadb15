/**
 * Owns how a command opens a file it was named (`pairs FILE`, `scan --pairs FILE`): that file and only
 * it, literally. A URL is refused; the name is resolved here, in Node, to the absolute real path of an
 * existing regular file (never a FIFO, a device or a folder, which could block a read or never end);
 * and a read takes at most the bytes the file had when it was looked at.
 */
import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { errorCode, UsageError } from './cli-common.ts';

/** `scheme://`: what DuckDB (and others) would take for a URL to fetch. */
const URL_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/** What a file that is not a regular one is, for messages (here, not in walk-files.ts, which brings the scan's hidden-file rules). */
export function specialKind(info: { isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string {
  return info.isFIFO() ? 'a FIFO' : info.isCharacterDevice() ? 'a character device' : info.isBlockDevice() ? 'a block device' : info.isSocket() ? 'a socket' : 'not a file';
}

/** A named input file, checked: the name as given, its absolute real path and its size when looked at. */
export interface NamedFile {
  given: string;
  real: string;
  size: number;
}

/**
 * Checks the file named `given` (`what` is how messages name it: '' for a command's FILE, '--pairs '
 * for an option's) and returns its real path; a URL, a missing or unreadable name, or anything but a
 * regular file is a UsageError naming it.
 */
export async function namedRegularFile(given: string, what = ''): Promise<NamedFile> {
  if (URL_SCHEME.test(given)) {
    throw new UsageError(`${what}${JSON.stringify(given)} names a URL: SimSift reads local files only (write ./${given} for a local file of that name)`);
  }
  let real: string;
  let info;
  try {
    real = await realpath(given);
    info = await stat(real);
  } catch (error) {
    throw new UsageError(`cannot read ${what}${JSON.stringify(given)} (${errorCode(error)})`);
  }
  if (info.isDirectory()) throw new UsageError(`cannot read ${what}${JSON.stringify(given)} (EISDIR: a folder, not a file)`);
  if (!info.isFile()) throw new UsageError(`cannot read ${what}${JSON.stringify(given)}: it is ${specialKind(info)}, not a regular file (never opened: it could block or never end)`);
  return { given, real, size: info.size };
}

/**
 * Reads a checked file whole, opened without blocking and without following a link swapped in since,
 * and only if it is still a regular file; never more than its size at the open, so a file that grows
 * while read cannot make the read endless. `into` gives the memory to read it into (a new buffer by default).
 */
export async function readNamedFile(file: NamedFile, what = '', into?: (size: number) => Uint8Array): Promise<Buffer> {
  let handle;
  try {
    handle = await open(file.real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    const info = await handle.stat();
    if (!info.isFile()) throw new UsageError(`cannot read ${what}${JSON.stringify(file.given)}: it is ${specialKind(info)} now, not a regular file`);
    const place = into?.(info.size);
    const bytes = place ? Buffer.from(place.buffer, place.byteOffset, place.length) : Buffer.allocUnsafe(info.size);
    let at = 0;
    while (at < bytes.length) {
      const { bytesRead } = await handle.read(bytes, at, bytes.length - at, at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
    return at === bytes.length ? bytes : bytes.subarray(0, at);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${what}${JSON.stringify(file.given)} (${errorCode(error)})`);
  } finally {
    await handle?.close();
  }
}
