/**
 * A pool of worker_threads for `simsift scan`: files are handed out in small batches as threads
 * finish, so reading and fingerprinting run on every core; results come back in file order.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { mergeDocumentFrequencies, type DocumentFrequencies } from '../core/simhash/document-frequencies.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import type { ScanThreadReply, ScanThreadRequest } from './scan-thread.ts';

/** Per-file outcome codes in `FileFingerprints.status`. */
export const FILE_OK = 0;
export const FILE_TOO_SHORT = 1;
export const FILE_BINARY = 2;
export const FILE_TOO_LARGE = 3;
export const FILE_UNREADABLE = 4;

/** Files per message: small enough to balance the threads, large enough to amortize messaging. */
const BATCH = 32;

/** Outcome of every file, in the order of the paths given. */
export type FileFingerprints = {
  status: Uint8Array;
  hi: Uint32Array;
  lo: Uint32Array;
  bytes: Float64Array;
  messages: (string | null)[];
};

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

/**
 * Worker threads do not inherit tsx's loader, so each registers tsx itself before importing
 * scan-thread.ts (paths resolved from this file, so any working directory works).
 */
function bootstrapSource(): string {
  const require = createRequire(import.meta.url);
  const tsxApi = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
  const entry = new URL('./scan-thread.ts', import.meta.url).href;
  return `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
}

type Request = ScanThreadRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** Starts `size` threads. */
export function startScanPool(size: number): ScanPool {
  const count = Math.max(1, Math.floor(size));
  const source = bootstrapSource();
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
      const n = paths.length;
      const out: FileFingerprints = {
        status: new Uint8Array(n),
        hi: new Uint32Array(n),
        lo: new Uint32Array(n),
        bytes: new Float64Array(n),
        messages: new Array<string | null>(n).fill(null),
      };
      let done = 0;
      await distribute('fingerprint', paths, (start, reply) => {
        if (!reply.ok || reply.type !== 'fingerprints') throw new Error('unexpected reply from a scan thread');
        out.status.set(reply.status, start);
        out.hi.set(reply.hi, start);
        out.lo.set(reply.lo, start);
        out.bytes.set(reply.bytes, start);
        for (let i = 0; i < reply.messages.length; i++) out.messages[start + i] = reply.messages[i];
        onProgress((done += reply.status.length));
      });
      return out;
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
