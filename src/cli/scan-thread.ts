/**
 * The worker_threads side of a threaded `simsift scan`: reads, decodes and fingerprints the files it
 * is sent (or counts their document frequencies for TF-IDF) and answers with typed arrays.
 */
import { parentPort } from 'node:worker_threads';
import { createFingerprinter, type Fingerprinter } from '../core/simhash/fingerprinter.ts';
import {
  createDocumentFrequencyCounter,
  type DocumentFrequencies,
  type DocumentFrequencyCounter,
} from '../core/simhash/document-frequencies.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { loadText } from './cli-common.ts';
import { FILE_BINARY, FILE_TOO_LARGE, FILE_TOO_SHORT, FILE_UNREADABLE } from './scan-threads.ts';


/** Messages from the pool to a thread. */
export type ScanThreadRequest =
  | { id: number; type: 'configure'; settings: SimHashSettings; documentFrequencies?: DocumentFrequencies }
  | { id: number; type: 'count'; paths: string[] }
  | { id: number; type: 'collect' }
  | { id: number; type: 'fingerprint'; paths: string[] };

/** A thread's answers. */
export type ScanThreadReply =
  | { id: number; ok: true; type: 'done' }
  | { id: number; ok: true; type: 'frequencies'; frequencies: DocumentFrequencies }
  | {
      id: number;
      ok: true;
      type: 'fingerprints';
      status: Uint8Array;
      hi: Uint32Array;
      lo: Uint32Array;
      bytes: Float64Array;
      /** The reason for each file that is binary, too large or unreadable (null otherwise). */
      messages: (string | null)[];
    }
  | { id: number; ok: false; message: string };

const port = parentPort;
if (!port) throw new Error('scan-thread.ts must run as a worker thread');

let settings: SimHashSettings | null = null;
let fingerprinter: Fingerprinter | null = null;
let setCounter: Fingerprinter | null = null;
let counter: DocumentFrequencyCounter | null = null;

async function handle(req: ScanThreadRequest): Promise<ScanThreadReply> {
  switch (req.type) {
    case 'configure':
      settings = req.settings;
      // TF-IDF is configured twice: first to count document frequencies, then with them to fingerprint.
      fingerprinter =
        req.settings.weights === 'tfidf' && !req.documentFrequencies
          ? null
          : createFingerprinter(req.settings, req.documentFrequencies ? { documentFrequencies: req.documentFrequencies } : {});
      return { id: req.id, ok: true, type: 'done' };
    case 'count': {
      if (!settings) throw new Error('count before configure');
      setCounter ??= createFingerprinter({ ...settings, weights: 'binary' });
      counter ??= createDocumentFrequencyCounter();
      for (const path of req.paths) {
        const loaded = await loadText(path);
        if (loaded.ok) counter.add(setCounter.featureSet(loaded.text));
      }
      return { id: req.id, ok: true, type: 'done' };
    }
    case 'collect': {
      const frequencies = (counter ?? createDocumentFrequencyCounter()).result();
      counter = null;
      return { id: req.id, ok: true, type: 'frequencies', frequencies };
    }
    case 'fingerprint': {
      if (!fingerprinter) throw new Error('fingerprint before configure');
      const n = req.paths.length;
      const out = {
        status: new Uint8Array(n),
        hi: new Uint32Array(n),
        lo: new Uint32Array(n),
        bytes: new Float64Array(n),
        messages: new Array<string | null>(n).fill(null),
      };
      for (let i = 0; i < n; i++) {
        const loaded = await loadText(req.paths[i]);
        out.bytes[i] = loaded.bytes;
        if (!loaded.ok) {
          out.status[i] = loaded.kind === 'binary' ? FILE_BINARY : loaded.kind === 'too-large' ? FILE_TOO_LARGE : FILE_UNREADABLE;
          out.messages[i] = loaded.message;
          continue;
        }
        const r = fingerprinter.fingerprint(loaded.text);
        if (r.status !== 'ok') {
          out.status[i] = FILE_TOO_SHORT;
          continue;
        }
        out.hi[i] = r.hi;
        out.lo[i] = r.lo;
      }
      return { id: req.id, ok: true, type: 'fingerprints', ...out };
    }
  }
}

port.on('message', (req: ScanThreadRequest) => {
  handle(req).then(
    (reply) => {
      const transfer =
        reply.ok && reply.type === 'fingerprints'
          ? [reply.status.buffer, reply.hi.buffer, reply.lo.buffer, reply.bytes.buffer]
          : reply.ok && reply.type === 'frequencies'
            ? [reply.frequencies.keys.buffer, reply.frequencies.counts.buffer]
            : [];
      port.postMessage(reply, transfer as ArrayBuffer[]);
    },
    (error: unknown) => port.postMessage({ id: req.id, ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
port.postMessage('ready');
