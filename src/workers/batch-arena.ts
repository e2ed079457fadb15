/**
 * An ingest worker's reused memory for a batch's output: the encoded feature sets kept for
 * verification go into one arena that lives as long as the worker (grown geometrically, never
 * shrunk), and the per-file columns share one buffer per batch. Why: a fresh array per document and
 * per column made the kernel fault in and zero new pages for every batch, which this machine pays dearly
 * for. What leaves the worker is an exact copy (it is transferred, so it cannot be the arena itself).
 */
import { encodedWordsBound, encodeFeatureSetInto } from '../core/groups/feature-set-codec.ts';
import type { IngestBatchResult } from './ingest-protocol.ts';
import type { KeptSets } from '../core/groups/packed-sets.ts';

/** Encoded feature sets of one batch at a time, in memory reused from batch to batch. */
export class KeptSetArena {
  private words = new Uint32Array(64 * 1024);
  private docs = new Uint32Array(256);
  private offsets = new Uint32Array(257);
  private count = 0;

  /** Forgets the last batch's sets (their memory is reused). */
  reset(): void {
    this.count = 0;
    this.offsets[0] = 0;
  }

  /** Encodes `set` (sorted, distinct) as batch item `doc`'s (core/groups/feature-set-codec.ts). */
  add(doc: number, set: Uint32Array): void {
    const at = this.offsets[this.count]!;
    const need = at + encodedWordsBound(set);
    if (need > this.words.length) this.words = grown(this.words, need, at);
    if (this.count + 2 > this.offsets.length) {
      this.docs = grown(this.docs, this.count + 1, this.count);
      this.offsets = grown(this.offsets, this.count + 2, this.count + 1);
    }
    this.docs[this.count] = doc;
    this.offsets[++this.count] = encodeFeatureSetInto(set, this.words, at);
  }

  /** The batch's sets packed at their exact size (copies: the arena stays with the worker). */
  packed(): KeptSets {
    const n = this.count;
    return { docs: this.docs.slice(0, n), offsets: this.offsets.slice(0, n + 1), words: this.words.slice(0, this.offsets[n]) };
  }
}

/** A copy of `a`'s first `keep` entries in an array of at least `need` (at least twice `a`'s length). */
function grown(a: Uint32Array<ArrayBuffer>, need: number, keep: number): Uint32Array<ArrayBuffer> {
  const next = new Uint32Array(Math.max(need, 2 * a.length));
  next.set(a.subarray(0, keep));
  return next;
}

/** The per-file columns of a batch result. */
export type BatchColumns = Pick<IngestBatchResult, 'sizes' | 'status' | 'flags' | 'hi' | 'lo' | 'words' | 'hashHi' | 'hashLo'> & { modified: Float64Array };

/** A batch's per-file columns for `n` files, zeroed, as views of one buffer (one allocation, one transfer). */
export function batchColumns(n: number): BatchColumns {
  // 8-byte columns first, then 4-byte, then bytes: every view is aligned.
  const buffer = new ArrayBuffer(n * (2 * 8 + 5 * 4 + 2));
  let at = 0;
  const take = <T>(make: (b: ArrayBuffer, offset: number, length: number) => T, bytes: number): T => {
    const view = make(buffer, at, n);
    at += n * bytes;
    return view;
  };
  const f64 = (b: ArrayBuffer, o: number, l: number) => new Float64Array(b, o, l);
  const u32 = (b: ArrayBuffer, o: number, l: number) => new Uint32Array(b, o, l);
  const u8 = (b: ArrayBuffer, o: number, l: number) => new Uint8Array(b, o, l);
  return {
    sizes: take(f64, 8),
    modified: take(f64, 8),
    hi: take(u32, 4),
    lo: take(u32, 4),
    words: take(u32, 4),
    hashHi: take(u32, 4),
    hashLo: take(u32, 4),
    status: take(u8, 1),
    flags: take(u8, 1),
  };
}
