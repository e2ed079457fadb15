/**
 * A document as storage keeps it and as a scan holds it: the one mapping between the scan's
 * `DocStatus` codes and the stored status and skip reason (both ways), and the messages a stored skip
 * shows after a reload, so a reload says what the scan said (a too-large file stays too large).
 */
import type { DocId, StorageId, StorageIds } from '../core/ids.ts';
import { DOC_FLAG_SKIPPED, DOC_FLAG_TOO_SHORT } from '../storage/corpus-columns.ts';
import type { LoadedCorpus, NewDocument } from '../storage/corpus-repository.ts';
import { LOADED_COLUMNS } from '../storage/corpus-columns.ts';
import { gatherDocColumns, pickDocColumns } from '../core/documents/doc-columns.ts';
import {
  DOC_STATUS_NAME,
  DocFlag,
  DocStatus,
  docStatusOfName,
  invalidUtf8Message,
  skipMessage,
  tooLargeMessage,
  tooShortMessage,
  type DocStatusCode,
  type SkipReason,
} from '../core/documents/document-status.ts';
import type { DocNote, ScanDocs, SkippedFile } from '../scan/scan-result.ts';
import { ascending, gatherDocs, pathOrder } from '../scan/scan-docs.ts';
import { toHex } from '../core/simhash/fingerprint64.ts';
import { SKETCH_BINS, sketchKnown } from '../core/groups/minhash-sketch.ts';
import { permutedEntries } from '../storage/index-shards.ts';
import type { TableEntries } from '../storage/shard-runs.ts';

/** The status of a stored skip reason (its DocStatus name; an unknown one reads as binary, as before). */
function statusOfReason(reason: string | undefined): number {
  const code = reason === undefined ? undefined : docStatusOfName(reason);
  return code === undefined || code === DocStatus.ok || code === DocStatus.pending ? DocStatus.binary : code;
}

/** The message a stored skip shows after a reload: the scan's own (a too-large file keeps its size, a too-short one its words). */
export function storedSkipMessage(reason: string, docs: Pick<ScanDocs, 'sizes' | 'words'>, d: number): string {
  if (reason === 'too-large') return tooLargeMessage(docs.sizes[d]!);
  if (reason === 'too-short') return tooShortMessage(docs.words[d]!);
  return skipMessage(reason as SkipReason);
}

/**
 * The stored "skip reason" of a compared document whose invalid UTF-8 was replaced: not a skip, a note
 * (the document's status stays ok), kept so that the note survives a reload (without its byte count).
 */
export const INVALID_UTF8_NOTE = 'invalid-utf8';

/** The restored corpus as the scan's document arrays (position = index in ascending storage id; groupSavedCorpus puts them in path order). */
export function docsFromCorpus(c: LoadedCorpus, files: Blob[], ranges?: Float64Array): ScanDocs {
  const status = new Uint8Array(c.count);
  const flags = new Uint8Array(c.count);
  for (const [p, reason] of c.skipReasons) if (reason === INVALID_UTF8_NOTE) flags[p] = DocFlag.invalidUtf8;
  for (let p = 0; p < c.count; p++) {
    const f = c.storedFlags[p]!;
    if (f & DOC_FLAG_TOO_SHORT) status[p] = DocStatus.tooShort;
    else if (f & DOC_FLAG_SKIPPED) status[p] = statusOfReason(c.skipReasons.get(p));
    else status[p] = DocStatus.ok;
  }
  return {
    count: c.count,
    paths: c.paths,
    files,
    ...(ranges ? { ranges } : {}),
    ...pickDocColumns(c, LOADED_COLUMNS),
    ...(c.modified ? { modified: c.modified } : {}),
    status,
    flags,
  };
}

/**
 * The scan's doc `d` as a stored document with id `id`, or null when it never finished (pending).
 * Copies are stored as skipped with reason 'copy': their fingerprint is their original's, resolved by
 * content hash when the corpus is grouped (docsFromCorpus maps the reason back to DocStatus.copy).
 * `message`: what the scan said of a skipped file (its detail: a PDF without a text layer), kept for a reload.
 * `known`: the feature-set sizes and sketches known for the docs (kept so a reload's verification uses them).
 */
export function storedDocumentOf(docs: ScanDocs, d: number, id: number, message?: string, known?: KnownSets): NewDocument | null {
  const status = docs.status[d]!;
  if (status === DocStatus.pending) return null;
  const hashed = docs.hashHi[d] !== 0 || docs.hashLo[d] !== 0;
  const base: NewDocument = {
    id,
    path: docs.paths[d]!.replaceAll('\0', ''),
    size: docs.sizes[d]!,
    // Recorded at ingest (the keep rules' newest/oldest read it back); 0 means "not recorded".
    lastModified: docs.modified?.[d] ?? 0,
    contentHash: hashed ? toHex(docs.hashHi[d]!, docs.hashLo[d]!) : null,
    status: 'ok',
    hi: docs.hi[d]!,
    lo: docs.lo[d]!,
    words: docs.words[d]!,
    features: 0,
    ...knownSetOf(known, d),
  };
  if (status === DocStatus.ok) {
    return docs.flags[d]! & DocFlag.invalidUtf8 ? { ...base, skipReason: INVALID_UTF8_NOTE, skipMessage: invalidUtf8Message() } : base;
  }
  if (status === DocStatus.tooShort) return { ...base, status: 'too-short', skipReason: 'too-short', skipMessage: tooShortMessage(docs.words[d]!) };
  // A copy's fingerprint is its original's, resolved by content hash when the corpus is grouped.
  const reason = DOC_STATUS_NAME[status as DocStatusCode] ?? 'unreadable';
  return { ...base, status: 'skipped', skipReason: reason, skipMessage: reason === 'copy' ? 'Same text as another file.' : (message ?? storedSkipMessage(reason, docs, d)) };
}

/** The loaded corpus at positions in path order, with what a scan's result lists beside its documents. */
export interface RestoredPositions {
  docs: ScanDocs;
  /** Storage id per position. */
  storageIds: StorageIds;
  skipped: SkippedFile[];
  notes: DocNote[];
  /** The references a person chose, as positions. */
  pinned: DocId[];
  /** Feature-set size per position (0: not known): verification's size bound (SearchCorpus.setSizes). */
  setSizes: Uint32Array;
  /** MinHash sketch per position (SKETCH_BINS each, all 0: not known): verification's sketch test. */
  sketches: Uint16Array;
}

/**
 * The loaded corpus at positions in path order (not in the order batches were saved; see scan-docs.ts
 * pathOrder), its stored skips and notes, the files listed but never stored (`notSaved`: hidden
 * files...), each path once, and the chosen references (`pinnedFrom`, by storage id; ids no longer
 * stored are gone).
 */
export function restoredPositions(loaded: LoadedCorpus, files: { files: Blob[]; ranges?: Float64Array }, notSaved: readonly [string, string, string][], pinnedFrom: StorageIds | undefined): RestoredPositions {
  const stored = docsFromCorpus(loaded, files.files, files.ranges);
  // A corpus kept in path order (the CLI's cache always is) is checked in one pass and not reordered.
  const order = ascending(stored.paths) ? null : pathOrder(stored.paths);
  const docs = order ? gatherDocs(stored, order) : stored;
  const storageIds = (order ? Uint32Array.from(order, (p) => loaded.ids[p]!) : loaded.ids) as StorageIds;
  const positionOf = order ? new Int32Array(order.length) : null;
  order?.forEach((p, i) => (positionOf![p] = i));
  const at = (p: number) => (positionOf ? positionOf[p]! : p);
  const skipped: SkippedFile[] = [];
  const notes: DocNote[] = [];
  for (const [stored, reason] of [...loaded.skipReasons].sort((x, y) => at(x[0]) - at(y[0]))) {
    const p = at(stored);
    if (reason === 'copy') continue;
    if (reason === INVALID_UTF8_NOTE) {
      notes.push({ docId: p, path: docs.paths[p]!, message: invalidUtf8Message() });
      continue;
    }
    // The scan's own message when it was kept (a corpus saved before kept the generic one).
    const message = loaded.skipMessages?.get(stored) || storedSkipMessage(reason, docs, p);
    skipped.push({ docId: p, path: docs.paths[p]!, size: docs.sizes[p]!, reason: reason as SkipReason, message });
  }
  // Files the scans listed but never stored (hidden files...): skipped as after the scan, each path once.
  const listed = notSaved.length > 0 ? new Set(docs.paths) : new Set<string>();
  for (const [path, reason, message] of notSaved) {
    if (listed.has(path)) continue;
    listed.add(path);
    skipped.push({ docId: -1, path, size: 0, reason: reason as SkipReason, message });
  }
  // Maps of every path and id only when something needs one (a restore without either skips 2 x n entries).
  const pins = pinnedFrom ? [...pinnedFrom] as StorageId[] : [];
  const byId = new Map<StorageId, DocId>();
  if (pins.length > 0) storageIds.forEach((id, p) => byId.set(id as StorageId, p as DocId));
  const pinned = pins.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  const setSizes = order ? Uint32Array.from(order, (p) => loaded.setSizes[p]!) : loaded.setSizes;
  return { docs, storageIds, skipped, notes, pinned, setSizes, sketches: order ? sketchesAt(loaded.sketches, order) : loaded.sketches };
}

/** The sketches (SKETCH_BINS per document) of documents `order`, in that order. */
function sketchesAt(sketches: Uint16Array, order: ArrayLike<number>): Uint16Array {
  const out = new Uint16Array(order.length * SKETCH_BINS);
  for (let i = 0; i < order.length; i++) out.set(sketches.subarray(order[i]! * SKETCH_BINS, (order[i]! + 1) * SKETCH_BINS), i * SKETCH_BINS);
  return out;
}

/**
 * Document d's feature-set size and sketch as the search `known` holds them (copies of a text take its
 * representative's: same text, same set), for storing it: absent where not known.
 */
export function knownSetOf(known: KnownSets | undefined, d: number): Pick<NewDocument, 'setSize' | 'sketch'> {
  if (!known) return {};
  const r = known.representative?.[d] ?? -1;
  const sizes = known.setSizes;
  const sketches = known.sketches;
  // Plain checks, no closures: this runs once per stored document in the page's batch writer.
  const sized = !sizes ? -1 : sizes[d]! > 0 ? d : r >= 0 && sizes[r]! > 0 ? r : -1;
  const sketched = !sketches ? -1 : sketchKnown(sketches, d) ? d : r >= 0 && sketchKnown(sketches, r) ? r : -1;
  const out: Pick<NewDocument, 'setSize' | 'sketch'> = {};
  if (sized >= 0) out.setSize = sizes![sized]!;
  // A view: the batch's columns copy it once (columnsFromDocuments), right after.
  if (sketched >= 0) out.sketch = sketches!.subarray(sketched * SKETCH_BINS, (sketched + 1) * SKETCH_BINS);
  return out;
}

/** What a scan or a corpus on show knows of its documents' feature sets, by position (SearchCorpus's columns). */
export interface KnownSets {
  setSizes?: Uint32Array;
  sketches?: Uint16Array;
  /** Exact classes (SearchCorpus.representative); absent: each document on its own (a scan's batch, before its search). */
  representative?: Int32Array;
}

/** The fingerprints of docs `ds` and their storage ids (from `idOf`), gathered for a table build. */
export function fingerprintsOf(docs: ScanDocs, ds: readonly number[], idOf: StorageIds): { hi: Uint32Array; lo: Uint32Array; ids: Uint32Array } {
  return { ...gatherDocColumns(docs, ['hi', 'lo'], ds), ids: Uint32Array.from(ds, (d) => idOf[d]!) };
}

/** The permuted-table entries of a batch's fingerprinted docs `ds` (storage ids from `idOf`). */
export function batchEntries(t: { k: number; blocks: number }, docs: ScanDocs, ds: readonly number[], idOf: StorageIds): TableEntries[] {
  const { hi, lo, ids } = fingerprintsOf(docs, ds, idOf);
  return permutedEntries({ k: t.k, blocks: t.blocks }, hi, lo, ids);
}

