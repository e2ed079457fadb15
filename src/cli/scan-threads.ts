/**
 * A pool of worker_threads for `simsift scan`: files are handed out in small batches as threads
 * finish, so reading and fingerprinting run on every core; results come back in file order.
 */
import { Worker } from 'node:worker_threads';
import { tsWorkerSource } from './thread-bootstrap.ts';
import { mergeDocumentFrequencies, type DocumentFrequencies } from '../core/simhash/document-frequencies.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { createFingerprinter, type Fingerprinter } from '../core/simhash/fingerprinter.ts';
import { xxh64Bytes } from '../core/simhash/xxh64.ts';
import { normalizeText } from '../core/text/normalize.ts';
import { isHtmlName, stripHtml } from '../core/text/html.ts';
import type { LoadedText } from './cli-common.ts';
import type { ScanThreadReply, ScanThreadRequest } from './scan-thread.ts';

/** Per-file outcome codes in `FileFingerprints.status`. */
export const FILE_OK = 0;
export const FILE_TOO_SHORT = 1;
export const FILE_BINARY = 2;
export const FILE_TOO_LARGE = 3;
export const FILE_UNREADABLE = 4;
export const FILE_EMPTY = 5;

/** Files per message: small enough to balance the threads, large enough to amortize messaging. */
const BATCH = 32;

/**
 * Documents with fewer words than this keep their feature set in memory (as the app's ingest does,
 * SMALL_SET_WORDS there): the short-document join needs the sets of every short document and of the
 * slightly longer ones it may pair with; they are tiny. Longer documents' sets are rebuilt from the
 * file only when a candidate pair needs them.
 */
export const SMALL_SET_WORDS = 200;

/** Most distinct texts remembered per reader for "identical text: fingerprint once" (bounded memory). */
const MAX_REMEMBERED_TEXTS = 500_000;

/** Outcome of every file, in the order of the paths given. */
export type FileFingerprints = {
  status: Uint8Array;
  hi: Uint32Array;
  lo: Uint32Array;
  bytes: Float64Array;
  /** Word tokens of the decoded text. */
  words: Uint32Array;
  /** XXH64 of the normalized text (the app's content hash): equal halves mean identical normalized text. */
  hashHi: Uint32Array;
  hashLo: Uint32Array;
  /** The reason for each file that is binary, too large or unreadable (null otherwise). */
  messages: (string | null)[];
  /** Feature sets of fingerprinted documents with fewer than SMALL_SET_WORDS words, by file index. */
  smallSets: Map<number, Uint32Array>;
  /** Texts actually fingerprinted (identical texts are fingerprinted once per reader). */
  fingerprinted: number;
};

/** Empty results for n files. */
export function createFileFingerprints(n: number): FileFingerprints {
  return {
    status: new Uint8Array(n),
    hi: new Uint32Array(n),
    lo: new Uint32Array(n),
    bytes: new Float64Array(n),
    words: new Uint32Array(n),
    hashHi: new Uint32Array(n),
    hashLo: new Uint32Array(n),
    messages: new Array<string | null>(n).fill(null),
    smallSets: new Map(),
    fingerprinted: 0,
  };
}

/** The text SimSift compares for a file: HTML pages (by name, as in the app) lose their markup. */
export function comparedText(path: string, text: string): string {
  return isHtmlName(path) ? stripHtml(text) : text;
}

const utf8 = new TextEncoder();

/** XXH64 of the normalized text as [hi, lo]: the app's content hash for exact duplicates. */
export function contentHash(text: string): [number, number] {
  return xxh64Bytes(utf8.encode(normalizeText(text)));
}

type Remembered = { ok: boolean; hi: number; lo: number; words: number; set: Uint32Array | null };

/**
 * Turns loaded files into fingerprint records, the same way on the main thread and in worker threads.
 * A text whose normalized form was seen before reuses that fingerprint (fingerprinted once).
 */
export class FileRecorder {
  private readonly fingerprinter: Fingerprinter;
  /** Feature sets do not depend on the weights: one binary fingerprinter makes them. */
  private readonly setMaker: Fingerprinter;
  private readonly seen = new Map<string, Remembered>();

  constructor(settings: SimHashSettings, documentFrequencies?: DocumentFrequencies) {
    this.fingerprinter = createFingerprinter(settings, documentFrequencies ? { documentFrequencies } : {});
    this.setMaker = createFingerprinter({ ...settings, weights: 'binary' });
  }

  /** Records file `i` (whose path names it, for HTML detection) into `out`. */
  record(out: FileFingerprints, i: number, path: string, loaded: LoadedText): void {
    out.bytes[i] = loaded.bytes;
    if (!loaded.ok) {
      out.status[i] = loaded.kind === 'binary' ? FILE_BINARY : loaded.kind === 'too-large' ? FILE_TOO_LARGE : FILE_UNREADABLE;
      out.messages[i] = loaded.message;
      return;
    }
    if (loaded.bytes === 0) {
      out.status[i] = FILE_EMPTY;
      return;
    }
    const text = comparedText(path, loaded.text);
    const [hashHi, hashLo] = contentHash(text);
    out.hashHi[i] = hashHi;
    out.hashLo[i] = hashLo;
    const key = `${hashHi}:${hashLo}`;
    let known = this.seen.get(key);
    if (known === undefined) {
      const r = this.fingerprinter.fingerprint(text);
      const ok = r.status === 'ok';
      known = { ok, hi: r.hi >>> 0, lo: r.lo >>> 0, words: r.words, set: ok && r.words < SMALL_SET_WORDS ? this.setMaker.featureSet(text) : null };
      out.fingerprinted++;
      if (this.seen.size >= MAX_REMEMBERED_TEXTS) this.seen.clear();
      this.seen.set(key, known);
    }
    out.words[i] = known.words;
    if (!known.ok) {
      out.status[i] = FILE_TOO_SHORT;
      return;
    }
    out.hi[i] = known.hi;
    out.lo[i] = known.lo;
    if (known.set) out.smallSets.set(i, known.set);
  }

  /** A document's feature set (sorted, distinct), from its compared text. */
  featureSet(path: string, text: string): Uint32Array {
    return this.setMaker.featureSet(comparedText(path, text));
  }
}

/** Small feature sets packed in typed arrays to cross a thread boundary: set i belongs to file docs[i]. */
export type PackedSets = { docs: Uint32Array; offsets: Uint32Array; keys: Uint32Array };

/** Packs a map of feature sets. */
export function packSets(sets: Map<number, Uint32Array>): PackedSets {
  const docs = new Uint32Array(sets.size);
  const offsets = new Uint32Array(sets.size + 1);
  let total = 0;
  let i = 0;
  for (const [doc, set] of sets) {
    docs[i++] = doc;
    total += set.length;
    offsets[i] = total;
  }
  const keys = new Uint32Array(total);
  i = 0;
  for (const set of sets.values()) keys.set(set, offsets[i++]);
  return { docs, offsets, keys };
}

/** A started pool. */
export type ScanPool = {
  readonly size: number;
  /** Makes every thread fingerprint with these settings (and corpus frequencies for TF-IDF). */
  configure(settings: SimHashSettings, documentFrequencies?: DocumentFrequencies): Promise<void>;
  /** Document frequencies of the files (TF-IDF's first pass), counted by all threads and merged. */
  countDocumentFrequencies(paths: readonly string[], onProgress: (done: number) => void): Promise<DocumentFrequencies>;
  /** Reads and fingerprints the files. */
  fingerprint(paths: readonly string[], onProgress: (done: number) => void): Promise<FileFingerprints>;
  close(): Promise<void>;
};

type Request = ScanThreadRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** Starts `size` threads. */
export function startScanPool(size: number): ScanPool {
  const count = Math.max(1, Math.floor(size));
  const source = tsWorkerSource(new URL('./scan-thread.ts', import.meta.url));
  const pending = new Map<number, { resolve: (r: ScanThreadReply) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const workers: Worker[] = [];
  const readies: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const worker = new Worker(source, { eval: true, execArgv: [] });
    workers.push(worker);
    readies.push(
      new Promise<void>((resolve, reject) => {
        worker.once('error', reject);
        worker.once('message', (m: unknown) => (m === 'ready' ? resolve() : reject(new Error(`scan thread sent ${String(m)}`))));
      }),
    );
    worker.on('message', (m: ScanThreadReply | 'ready') => {
      if (m === 'ready') return;
      pending.get(m.id)?.resolve(m);
      pending.delete(m.id);
    });
    const failAll = (e: Error) => {
      for (const p of pending.values()) p.reject(e);
      pending.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`scan thread exited with code ${code}`)));
  }
  const ready = Promise.all(readies).then(() => undefined);
  ready.catch(() => undefined);

  async function call(worker: Worker, req: Request): Promise<ScanThreadReply> {
    const id = nextId++;
    const reply = await new Promise<ScanThreadReply>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...req, id });
    });
    if (!reply.ok) throw new Error(reply.message);
    return reply;
  }

  /** Hands out batches of paths to whichever thread is free; calls `onReply` with each batch's start. */
  async function distribute(
    type: 'count' | 'fingerprint',
    paths: readonly string[],
    onReply: (start: number, reply: ScanThreadReply) => void,
  ): Promise<void> {
    await ready;
    let next = 0;
    await Promise.all(
      workers.map(async (worker) => {
        while (next < paths.length) {
          const start = next;
          next = Math.min(paths.length, next + BATCH);
          onReply(start, await call(worker, { type, paths: paths.slice(start, next) }));
        }
      }),
    );
  }

  return {
    size: count,
    async configure(settings, documentFrequencies) {
      await ready;
      await Promise.all(workers.map((w) => call(w, { type: 'configure', settings, documentFrequencies })));
    },
    async countDocumentFrequencies(paths, onProgress) {
      let done = 0;
      await distribute('count', paths, (start) => onProgress((done += Math.min(BATCH, paths.length - start))));
      const parts = await Promise.all(workers.map((w) => call(w, { type: 'collect' })));
      return mergeDocumentFrequencies(parts.map((p) => (p.ok && p.type === 'frequencies' ? p.frequencies : null)!));
    },
    async fingerprint(paths, onProgress) {
      const out = createFileFingerprints(paths.length);
      let done = 0;
      await distribute('fingerprint', paths, (start, reply) => {
        if (!reply.ok || reply.type !== 'fingerprints') throw new Error('unexpected reply from a scan thread');
        out.status.set(reply.status, start);
        out.hi.set(reply.hi, start);
        out.lo.set(reply.lo, start);
        out.bytes.set(reply.bytes, start);
        out.words.set(reply.words, start);
        out.hashHi.set(reply.hashHi, start);
        out.hashLo.set(reply.hashLo, start);
        for (let i = 0; i < reply.messages.length; i++) out.messages[start + i] = reply.messages[i];
        const { docs, offsets, keys } = reply.sets;
        for (let i = 0; i < docs.length; i++) out.smallSets.set(start + docs[i], keys.subarray(offsets[i], offsets[i + 1]));
        out.fingerprinted += reply.fingerprinted;
        onProgress((done += reply.status.length));
      });
      return out;
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
