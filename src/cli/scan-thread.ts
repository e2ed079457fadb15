/**
 * The worker_threads side of a threaded `simsift scan`: reads, decodes, hashes and fingerprints the
 * files it is sent (or counts their document frequencies for TF-IDF) and answers with typed arrays.
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
import { comparedText, createFileFingerprints, FileRecorder, packSets, type PackedSets } from './scan-threads.ts';

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
      words: Uint32Array;
      hashHi: Uint32Array;
      hashLo: Uint32Array;
      /** Small feature sets, by index in the batch. */
      sets: PackedSets;
      /** Texts fingerprinted (not repeats of a text this thread saw before). */
      fingerprinted: number;
      /** The reason for each file that is binary, too large or unreadable (null otherwise). */
      messages: (string | null)[];
    }
  | { id: number; ok: false; message: string };

const port = parentPort;
if (!port) throw new Error('scan-thread.ts must run as a worker thread');

let settings: SimHashSettings | null = null;
let recorder: FileRecorder | null = null;
let setCounter: Fingerprinter | null = null;
let counter: DocumentFrequencyCounter | null = null;

async function handle(req: ScanThreadRequest): Promise<ScanThreadReply> {
  switch (req.type) {
    case 'configure':
      settings = req.settings;
      // TF-IDF is configured twice: first to count document frequencies, then with them to fingerprint.
      recorder =
        req.settings.weights === 'tfidf' && !req.documentFrequencies ? null : new FileRecorder(req.settings, req.documentFrequencies);
      return { id: req.id, ok: true, type: 'done' };
    case 'count': {
      if (!settings) throw new Error('count before configure');
      setCounter ??= createFingerprinter({ ...settings, weights: 'binary' });
      counter ??= createDocumentFrequencyCounter();
      for (const path of req.paths) {
        const loaded = await loadText(path);
        if (loaded.ok) counter.add(setCounter.featureSet(comparedText(path, loaded.text)));
      }
      return { id: req.id, ok: true, type: 'done' };
    }
    case 'collect': {
      const frequencies = (counter ?? createDocumentFrequencyCounter()).result();
      counter = null;
      return { id: req.id, ok: true, type: 'frequencies', frequencies };
    }
    case 'fingerprint': {
      if (!recorder) throw new Error('fingerprint before configure');
      const out = createFileFingerprints(req.paths.length);
      for (let i = 0; i < req.paths.length; i++) recorder.record(out, i, req.paths[i], await loadText(req.paths[i]));
      const { status, hi, lo, bytes, words, hashHi, hashLo, messages, fingerprinted } = out;
      const sets = packSets(out.smallSets);
      return { id: req.id, ok: true, type: 'fingerprints', status, hi, lo, bytes, words, hashHi, hashLo, sets, fingerprinted, messages };
    }
  }
}

port.on('message', (req: ScanThreadRequest) => {
  handle(req).then(
    (reply) => {
      const transfer =
        reply.ok && reply.type === 'fingerprints'
          ? [
              reply.status.buffer,
              reply.hi.buffer,
              reply.lo.buffer,
              reply.bytes.buffer,
              reply.words.buffer,
              reply.hashHi.buffer,
              reply.hashLo.buffer,
              reply.sets.docs.buffer,
              reply.sets.offsets.buffer,
              reply.sets.keys.buffer,
            ]
          : reply.ok && reply.type === 'frequencies'
            ? [reply.frequencies.keys.buffer, reply.frequencies.counts.buffer]
            : [];
      port.postMessage(reply, transfer as ArrayBuffer[]);
    },
    (error: unknown) => port.postMessage({ id: req.id, ok: false, message: error instanceof Error ? error.message : String(error) }),
  );
});
port.postMessage('ready');
