/**
 * Where the feature sets kept from fingerprinting live (issue #38, the renderer's memory): each
 * batch's encoded sets are put in one Blob by its ingest worker (ScanWorkers.keptSetsInBlobs; the CLI
 * keeps them in memory), and the page keeps per document only
 * where its set is and its size (16 bytes, not the set: about 0.4x the text). Why a Blob: Chromium
 * keeps a Blob's bytes in the browser process (on disk past its memory limit), not in the page's
 * process, whose workers share its memory; a scan's kept sets no longer pile up there. Verification
 * reads back only the sets of the documents it measures (`load`), a chunk at a time.
 */
import { encodedSetSize } from '../core/groups/feature-set-codec.ts';
import type { KeptSetsBlob } from '../workers/ingest-protocol.ts';
import type { KeptSets } from '../core/groups/packed-sets.ts';

/** Ranges of one Blob closer than this (in words) are read as one. */
const READ_GAP_WORDS = 4096;
/** Blob reads in flight at once during a `load`. */
const READS_IN_FLIGHT = 8;

/** The kept feature sets of a corpus's documents (doc ids), each encoded (core/groups/feature-set-codec.ts). */
export class KeptSetStore {
  /** Each batch's encoded sets: a Blob, or (Node: a Blob would be in the process anyway) the words. */
  private readonly batches: Array<Blob | Uint32Array> = [];
  /** Per doc: the index of the batch holding its set, -1 when none is kept. */
  private readonly blobOf: Int32Array;
  /** Per doc: where its encoded set starts in its batch, and its length, in 32-bit words. */
  private readonly startOf: Uint32Array;
  private readonly wordsOf: Uint32Array;
  /** Per doc: its set's size (distinct keys), 0 when none is kept. */
  private readonly sizeOf: Uint32Array;
  /** Documents with a kept set, and the bytes of their encoded sets. */
  kept = 0;
  bytes = 0;

  constructor(readonly count: number) {
    this.blobOf = new Int32Array(count).fill(-1);
    this.startOf = new Uint32Array(count);
    this.wordsOf = new Uint32Array(count);
    this.sizeOf = new Uint32Array(count);
  }

  /**
   * Keeps one batch's sets (`kept.docs` are indexes into `ids`, the batch's doc ids), as an ingest
   * worker put them in a Blob (`keptInBlob`) or packed in memory; a document's later set replaces its earlier one.
   */
  add(ids: ArrayLike<number>, kept: KeptSets | KeptSetsBlob): void {
    if (kept.docs.length === 0) return;
    const blob = this.batches.length;
    this.batches.push('blob' in kept ? kept.blob : kept.words);
    for (let i = 0; i < kept.docs.length; i++) {
      const [start, end] = [kept.offsets[i], kept.offsets[i + 1]];
      const size = 'blob' in kept ? kept.sizes[i] : encodedSetSize(kept.words.subarray(start, end));
      this.place(ids[kept.docs[i]], blob, start, end - start, size);
    }
  }

  private place(d: number, blob: number, start: number, words: number, size: number): void {
    if (this.blobOf[d] < 0) this.kept++;
    else this.bytes -= 4 * this.wordsOf[d];
    this.blobOf[d] = blob;
    this.startOf[d] = start;
    this.wordsOf[d] = words;
    this.sizeOf[d] = size;
    this.bytes += 4 * words;
  }

  /** Whether document `d` has a kept set. */
  has(d: number): boolean {
    return d < this.count && this.blobOf[d] >= 0;
  }

  /** Document `d`'s set size (distinct keys), or 0 when none is kept. */
  size(d: number): number {
    return d < this.count ? this.sizeOf[d] : 0;
  }

  /** The bytes of document `d`'s encoded set (0: none kept). */
  byteLength(d: number): number {
    return d < this.count ? 4 * this.wordsOf[d] : 0;
  }

  /**
   * The kept sets of `ids`, packed for a worker job: `docs` are the indexes into `ids` of the documents
   * with a set, in order. Ranges of one Blob close together are read at once.
   */
  async load(ids: readonly number[]): Promise<KeptSets> {
    const local: number[] = [];
    for (let i = 0; i < ids.length; i++) if (this.has(ids[i])) local.push(i);
    const offsets = new Uint32Array(local.length + 1);
    for (let s = 0; s < local.length; s++) offsets[s + 1] = offsets[s] + this.wordsOf[ids[local[s]]];
    const words = new Uint32Array(offsets[local.length]);
    // Reads: the wanted sets by (blob, start), runs of nearby ranges merged into one read.
    const order = local.map((_, s) => s).sort((x, y) => this.blobOf[ids[local[x]]] - this.blobOf[ids[local[y]]] || this.startOf[ids[local[x]]] - this.startOf[ids[local[y]]]);
    const runs: Array<{ blob: number; from: number; to: number; sets: number[] }> = [];
    for (const s of order) {
      const d = ids[local[s]];
      const last = runs[runs.length - 1];
      const [blob, from, to] = [this.blobOf[d], this.startOf[d], this.startOf[d] + this.wordsOf[d]];
      if (last && last.blob === blob && from <= last.to + READ_GAP_WORDS) {
        last.to = Math.max(last.to, to);
        last.sets.push(s);
      } else runs.push({ blob, from, to, sets: [s] });
    }
    let next = 0;
    const lane = async () => {
      while (next < runs.length) {
        const run = runs[next++];
        const batch = this.batches[run.blob];
        const read = batch instanceof Blob ? new Uint32Array(await batch.slice(4 * run.from, 4 * run.to).arrayBuffer()) : batch.subarray(run.from, run.to);
        for (const s of run.sets) {
          const d = ids[local[s]];
          const at = this.startOf[d] - run.from;
          words.set(read.subarray(at, at + this.wordsOf[d]), offsets[s]);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(READS_IN_FLIGHT, runs.length) }, lane));
    return { docs: Uint32Array.from(local), offsets, words };
  }

  /**
   * A store of `count` documents holding the sets of `parts`' stores, document d of a part becoming
   * `to[d]` (negative: left out); the batches are shared, nothing is read or copied.
   */
  static merged(count: number, parts: ReadonlyArray<readonly [KeptSetStore, ArrayLike<number>]>): KeptSetStore {
    const out = new KeptSetStore(count);
    for (const [store, to] of parts) {
      const base = out.batches.length;
      out.batches.push(...store.batches);
      for (let d = 0; d < Math.min(store.count, to.length); d++) {
        if (store.blobOf[d] >= 0 && to[d] >= 0) out.place(to[d], base + store.blobOf[d], store.startOf[d], store.wordsOf[d], store.sizeOf[d]);
      }
    }
    return out;
  }
}
