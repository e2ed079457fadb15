/**
 * The ingest worker's API: takes a batch of files (bytes the main thread read, or Blobs read here,
 * huge ones in chunks), decodes them with the core's sniffing, strips HTML, hashes the normalized text with XXH64 (xxhash-wasm)
 * for exact duplicates and fingerprints each distinct text once. Results go back as typed arrays.
 */
import xxhash, { type XXHashAPI } from 'xxhash-wasm';
import { transfer } from 'comlink';
import { decodeText } from '../core/text/decode.ts';
import { normalizeText } from '../core/text/normalize.ts';
import { stripHtml, isHtmlName } from '../core/text/html.ts';
import { createFingerprinter, type Fingerprinter } from '../core/simhash/fingerprinter.ts';
import { hiOf, loOf } from '../core/simhash/fingerprint64.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import {
  DEFAULT_INGEST_LIMITS,
  DocFlag,
  DocStatus,
  skipMessage,
  type BatchSkip,
  tooShortMessage,
  type IngestBatchOptions,
  type IngestBatchResult,
  type IngestItem,
  type IngestLimits,
} from './ingest-protocol.ts';
import { claimHash } from './claimed-hashes.ts';

/** Decoded text of one file, or why there is none. */
type FileText =
  | { ok: true; text: string; hashHi: number; hashLo: number; flags: number }
  | { ok: false; status: number; skip: BatchSkip['reason']; message: string };

interface CachedPrint {
  status: number;
  hi: number;
  lo: number;
  words: number;
}

// WASM is compiled once per worker; every batch awaits the same promise.
let xxhashPromise: Promise<XXHashAPI> | null = null;
function getXxhash(): Promise<XXHashAPI> {
  xxhashPromise ??= xxhash();
  return xxhashPromise;
}

// One fingerprinter per settings, and a cache of fingerprints by content hash: identical texts
// that land in this worker are fingerprinted once. Bounded so a long session cannot grow it forever.
let fingerprinterKey = '';
let fingerprinter: Fingerprinter | null = null;
const printsByHash = new Map<string, CachedPrint>();
const MAX_CACHED_PRINTS = 500_000;

function fingerprinterFor(settings: SimHashSettings): Fingerprinter {
  const key = JSON.stringify(settings);
  if (!fingerprinter || key !== fingerprinterKey) {
    fingerprinter = createFingerprinter(settings);
    fingerprinterKey = key;
    printsByHash.clear();
  }
  return fingerprinter;
}

/** Index just past the last whitespace that is followed by a word: pieces cut there normalize alike. */
function lastWordStart(text: string): number {
  for (let i = text.length - 1; i > 0; i--) {
    const c = text.charCodeAt(i - 1);
    if ((c === 32 || c === 10 || c === 9 || c === 13) && text.charCodeAt(i) > 32) return i;
  }
  return 0;
}

function describeError(error: unknown): string {
  if (error instanceof DOMException) return error.name === 'NotFoundError' ? 'file not found' : error.name;
  return error instanceof Error ? error.message : String(error);
}

/** Decodes a whole file's bytes, strips HTML, hashes the normalized text. */
function decodeWhole(bytes: Uint8Array, html: boolean, xx: XXHashAPI): FileText {
  const decoded = decodeText(bytes);
  if (!decoded.ok) return { ok: false, status: DocStatus.binary, skip: 'binary', message: skipMessage('binary', decoded.message) };
  const text = html ? stripHtml(decoded.text) : decoded.text;
  const hash = xx.h64(normalizeText(text));
  return { ok: true, text, hashHi: hiOf(hash), hashLo: loOf(hash), flags: html ? DocFlag.html : 0 };
}

/**
 * Reads a huge file in chunks with a streaming TextDecoder: memory stays bounded by one chunk plus
 * the fingerprinted prefix (at most `fingerprintCapChars`). The content hash covers the whole text.
 * Markup is not stripped in this path (a tag or script can straddle chunks).
 */
async function readStreamed(file: Blob, xx: XXHashAPI, limits: IngestLimits, onBytes: (n: number) => void): Promise<FileText> {
  const first = new Uint8Array(await file.slice(0, limits.chunkBytes).arrayBuffer());
  // Sniff on the first chunk, cut at an ASCII byte so a multi-byte character is not split.
  let sniffEnd = first.length;
  for (let back = 0; back < 4 && sniffEnd > 0 && first[sniffEnd - 1] >= 0x80; back++) sniffEnd--;
  const sniff = decodeText(first.subarray(0, sniffEnd > 0 ? sniffEnd : first.length));
  if (!sniff.ok) return { ok: false, status: DocStatus.binary, skip: 'binary', message: skipMessage('binary', sniff.message) };
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(sniff.encoding);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  const hasher = xx.create64();
  const prefix: string[] = [];
  let prefixChars = 0;
  let truncated = false;
  let carry = '';
  for (let offset = 0; offset < file.size; offset += limits.chunkBytes) {
    const last = offset + limits.chunkBytes >= file.size;
    const bytes = offset === 0 ? first : new Uint8Array(await file.slice(offset, offset + limits.chunkBytes).arrayBuffer());
    const piece = carry + decoder.decode(bytes, { stream: !last });
    const cut = last ? piece.length : lastWordStart(piece);
    const emit = piece.slice(0, cut);
    carry = piece.slice(cut);
    hasher.update(normalizeText(emit));
    if (prefixChars < limits.fingerprintCapChars) {
      const room = limits.fingerprintCapChars - prefixChars;
      const kept = emit.length <= room ? emit : emit.slice(0, lastWordStart(emit.slice(0, room + 1)) || room);
      if (kept.length < emit.length) truncated = true;
      prefix.push(kept);
      prefixChars += kept.length;
    } else if (emit.length > 0) truncated = true;
    onBytes(bytes.length);
  }
  const hash = hasher.digest();
  return { ok: true, text: prefix.join(''), hashHi: hiOf(hash), hashLo: loOf(hash), flags: truncated ? DocFlag.truncated : 0 };
}

/** Reads (if needed) and decodes one item; never rejects (a failed read is an 'unreadable' result). */
async function readItem(item: IngestItem, xx: XXHashAPI, limits: IngestLimits, addBytes: (n: number) => void): Promise<FileText> {
  try {
    const html = isHtmlName(item.name);
    if (item.bytes) {
      addBytes(item.bytes.byteLength);
      return decodeWhole(item.bytes, html, xx);
    }
    const file = item.file!;
    if (file.size > limits.streamAboveBytes) return await readStreamed(file, xx, limits, addBytes);
    const read = decodeWhole(new Uint8Array(await file.arrayBuffer()), html, xx);
    addBytes(file.size);
    return read;
  } catch (error) {
    return { ok: false, status: DocStatus.unreadable, skip: 'unreadable', message: skipMessage('unreadable', describeError(error)) };
  }
}

/** The ingest worker's API object (exposed as-is by `ingest.worker.ts`). */
export const ingestApi = {
  /**
   * Processes one batch; results are in batch order. Items given as Files are read here, a few
   * ahead of hashing (huge ones one at a time, in chunks). `onProgress` (a comlink proxy, optional)
   * receives the batch's bytes read so far, at most every 100 ms. Result buffers are transferred.
   */
  async ingestBatch(
    items: IngestItem[],
    settings: SimHashSettings,
    options: IngestBatchOptions = {},
    onProgress?: (bytesRead: number) => void,
  ): Promise<IngestBatchResult> {
    const limits = options.limits ?? DEFAULT_INGEST_LIMITS;
    const xx = await getXxhash();
    const fp = fingerprinterFor(settings);
    const n = items.length;
    const sizeOf = (item: IngestItem) => (item.bytes ? item.bytes.byteLength : item.file!.size);
    const out: IngestBatchResult = {
      sizes: Float64Array.from(items, sizeOf),
      status: new Uint8Array(n),
      flags: new Uint8Array(n),
      hi: new Uint32Array(n),
      lo: new Uint32Array(n),
      words: new Uint32Array(n),
      hashHi: new Uint32Array(n),
      hashLo: new Uint32Array(n),
      skipped: [],
      bytesRead: 0,
      fingerprinted: 0,
    };
    let lastReport = performance.now();
    const addBytes = (bytes: number) => {
      out.bytesRead += bytes;
      const now = performance.now();
      if (onProgress && now - lastReport >= 100) {
        lastReport = now;
        void onProgress(out.bytesRead);
      }
    };
    const reads: Array<Promise<FileText> | undefined> = new Array(n);
    const startRead = (i: number) => {
      // Huge files are not read ahead: each holds a chunk and a capped prefix while it is read.
      if (i < n && items[i].file && out.sizes[i] > 0 && out.sizes[i] <= limits.streamAboveBytes) reads[i] = readItem(items[i], xx, limits, addBytes);
    };
    for (let i = 0; i < Math.min(n, limits.readAhead); i++) startRead(i);
    for (let i = 0; i < n; i++) {
      const pending = reads[i];
      reads[i] = undefined;
      startRead(i + limits.readAhead);
      if (out.sizes[i] === 0) {
        out.status[i] = DocStatus.empty;
        out.skipped.push({ index: i, reason: 'empty', message: skipMessage('empty') });
        continue;
      }
      const read = await (pending ?? readItem(items[i], xx, limits, addBytes));
      if (!read.ok) {
        out.status[i] = read.status;
        out.skipped.push({ index: i, reason: read.skip, message: read.message });
        continue;
      }
      out.flags[i] = read.flags;
      out.hashHi[i] = read.hashHi;
      out.hashLo[i] = read.hashLo;
      let print: CachedPrint | undefined;
      if (options.claims) {
        if (!claimHash(options.claims, read.hashHi, read.hashLo)) {
          out.status[i] = DocStatus.copy;
          continue;
        }
      } else print = printsByHash.get(`${read.hashHi}:${read.hashLo}`);
      if (!print) {
        const r = fp.fingerprint(read.text);
        print = { status: r.status === 'ok' ? DocStatus.ok : DocStatus.tooShort, hi: r.hi >>> 0, lo: r.lo >>> 0, words: r.words };
        out.fingerprinted++;
        if (!options.claims) {
          if (printsByHash.size >= MAX_CACHED_PRINTS) printsByHash.clear();
          printsByHash.set(`${read.hashHi}:${read.hashLo}`, print);
        }
      }
      out.status[i] = print.status;
      out.words[i] = print.words;
      if (print.status === DocStatus.ok) {
        out.hi[i] = print.hi;
        out.lo[i] = print.lo;
      } else out.skipped.push({ index: i, reason: 'too-short', message: tooShortMessage(print.words) });
    }
    return transfer(out, [
      out.sizes.buffer,
      out.status.buffer,
      out.flags.buffer,
      out.hi.buffer,
      out.lo.buffer,
      out.words.buffer,
      out.hashHi.buffer,
      out.hashLo.buffer,
    ]);
  },
};

export type IngestApi = typeof ingestApi;
