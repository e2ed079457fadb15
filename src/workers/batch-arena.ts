/**
 * An ingest worker's reused memory for a batch's output: the encoded feature sets kept for
 * verification go into one arena that lives as long as the worker (grown geometrically, never
 * shrunk), and the per-file columns share one buffer per batch. Why: a fresh array per document and
 * per column made the kernel fault in and zero new pages for every batch, which this machine pays dearly
 * for. What leaves the worker is an exact copy (it is transferred, so it cannot be the arena itself).
 */
import { encodedWordsBound, encodeFeatureSetInto } from '../core/groups/feature-set-codec.ts';
import { allocateDocColumns, DOC_COLUMN_NAMES, type DocColumns } from '../core/documents/doc-columns.ts';
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

  /**
   * The batch's sets packed at their exact size (copies: the arena stays with the worker); `shared`:
   * their words in a SharedArrayBuffer, so later jobs name them to any worker without copying them.
   */
  packed(shared = false): KeptSets {
    const n = this.count;
    const length = this.offsets[n]!;
    const words = shared ? new Uint32Array(new SharedArrayBuffer(4 * length)) : new Uint32Array(length);
    words.set(this.words.subarray(0, length));
    return { docs: this.docs.slice(0, n), offsets: this.offsets.slice(0, n + 1), words };
  }
}

/** A copy of `a`'s first `keep` entries in an array of at least `need` (at least twice `a`'s length). */
function grown(a: Uint32Array<ArrayBuffer>, need: number, keep: number): Uint32Array<ArrayBuffer> {
  const next = new Uint32Array(Math.max(need, 2 * a.length));
  next.set(a.subarray(0, keep));
  return next;
}

/** The per-file columns of a batch result. */
export type BatchColumns = DocColumns;

/** A batch's per-file columns for `n` files, zeroed, as views of one buffer (one allocation, one transfer). */
export function batchColumns(n: number): BatchColumns {
  return allocateDocColumns(DOC_COLUMN_NAMES, n, true);
}
