/**
 * Turns stored or merged documents back into a full ScanResult: the restored corpus as the scan's
 * per-document arrays (with the stored Blobs as Files), and the near-duplicate stage of the pipeline
 * (exact groups, candidates, verification, grouping) run over them without fingerprinting anything again.
 */
import type { SimHashSettings } from '../core/simhash/settings.ts';
import type { LoadedCorpus, NewDocument } from '../storage/corpus-repository.ts';
import { DOC_FLAG_SKIPPED, DOC_FLAG_TOO_SHORT } from '../storage/corpus-columns.ts';
import { readTransaction } from '../storage/database.ts';
import { DocStatus, SMALL_SET_WORDS, skipMessage, tooShortMessage } from '../workers/ingest-protocol.ts';
import type { IngestItem, PackedSets } from '../workers/ingest-protocol.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import { concatSets, searchDocs } from './near-duplicate-search.ts';
import type { Grouping, ScanDocs, ScanResult, SkippedFile } from './scan-result.ts';

const STATUS_FROM_REASON: Record<string, number> = {
  copy: DocStatus.copy,
  binary: DocStatus.binary,
  empty: DocStatus.empty,
  unreadable: DocStatus.unreadable,
};

/** Up to this many documents, the stored contents are read back as Files on restore (more would hold too many handles). */
export const RESTORE_FILES_LIMIT = 100_000;

/** The restored corpus as the scan's document arrays (position = index in ascending storage id). */
export function docsFromCorpus(c: LoadedCorpus, files: File[]): ScanDocs {
  const status = new Uint8Array(c.count);
  for (let p = 0; p < c.count; p++) {
    const f = c.flags[p]!;
    if (f & DOC_FLAG_TOO_SHORT) status[p] = DocStatus.tooShort;
    else if (f & DOC_FLAG_SKIPPED) status[p] = STATUS_FROM_REASON[c.skipReasons.get(p) ?? 'binary'] ?? DocStatus.binary;
    else status[p] = DocStatus.ok;
  }
  return {
    count: c.count,
    paths: c.paths,
    files,
    sizes: c.sizes,
    status,
    flags: new Uint8Array(c.count),
    hi: c.hi,
    lo: c.lo,
    words: c.words,
    hashHi: c.hashHi,
    hashLo: c.hashLo,
  };
}

/**
 * Files for the restored documents: the stored Blobs as Files (so the pair view and verification can
 * read them), or an empty File where the contents were not kept (size 0: views ask for the file again).
 */
export async function restoreFiles(c: LoadedCorpus, keepContents: boolean): Promise<File[]> {
  const blobs = new Map<number, Blob>();
  if (keepContents && c.count <= RESTORE_FILES_LIMIT) {
    const records = await readTransaction(['contents'], (tx) => tx.objectStore('contents').getAll());
    for (const r of records) blobs.set(r.id, r.blob);
  }
  // Creating a Blob costs a round trip to the browser process (measured in Chromium: 100,000 empty
  // Files took 9 s), so documents without contents share one empty File, and stored Files (addBatch
  // stores the scan's File objects) are used as they come back.
  const none = new File([], '');
  const files = new Array<File>(c.count).fill(none);
  for (let p = 0; p < c.count; p++) {
    const blob = blobs.get(c.ids[p]!);
    if (!blob) continue;
    const name = c.paths[p]!;
    files[p] = blob instanceof File ? blob : new File([blob], name.slice(name.lastIndexOf('/') + 1));
  }
  return files;
}

/** Two document sets, a then b (b's doc ids shift by a.count). */
export function concatDocs(a: ScanDocs, b: ScanDocs): ScanDocs {
  const cat = <T extends Float64Array | Uint8Array | Uint32Array>(x: T, y: T, make: new (n: number) => T): T => {
    const out = new make(x.length + y.length);
    out.set(x, 0);
    out.set(y, x.length);
    return out;
  };
  return {
    count: a.count + b.count,
    paths: [...a.paths, ...b.paths],
    files: [...a.files, ...b.files],
    sizes: cat(a.sizes, b.sizes, Float64Array),
    status: cat(a.status, b.status, Uint8Array),
    flags: cat(a.flags, b.flags, Uint8Array),
    hi: cat(a.hi, b.hi, Uint32Array),
    lo: cat(a.lo, b.lo, Uint32Array),
    words: cat(a.words, b.words, Uint32Array),
    hashHi: cat(a.hashHi, b.hashHi, Uint32Array),
    hashLo: cat(a.hashLo, b.hashLo, Uint32Array),
  };
}

/** The grouping parameters of a result. */
export interface GroupingOptions {
  settings: SimHashSettings;
  k: number;
  similarityThreshold: number;
  grouping: Grouping;
}

/**
 * Feature sets of the small fingerprinted documents (the short-document join needs them): the ingest
 * workers read only those documents (from their stored Blobs) and return their sets.
 */
async function smallSetsOf(workers: ScanWorkers, signal: AbortSignal, docs: ScanDocs, settings: SimHashSettings): Promise<PackedSets> {
  const small: number[] = [];
  for (let d = 0; d < docs.count; d++) {
    if (docs.status[d] === DocStatus.ok && docs.words[d]! < SMALL_SET_WORDS && docs.files[d]!.size > 0) small.push(d);
  }
  const parts: PackedSets[] = [];
  const tasks: Promise<void>[] = [];
  for (let from = 0; from < small.length; from += 256) {
    const ids = small.slice(from, from + 256);
    const items: IngestItem[] = ids.map((d) => ({ name: docs.paths[d]!, file: docs.files[d]! }));
    tasks.push(
      workers.ingest
        .run(signal, (api) => api.ingestBatch(items, settings, {}))
        .then((r) => {
          const mapped = r.sets.docs.map((i) => ids[i]!);
          parts.push({ docs: mapped, offsets: r.sets.offsets, keys: r.sets.keys });
        }),
    );
  }
  await Promise.all(tasks);
  return concatSets(parts);
}

/**
 * Runs the pipeline's near-duplicate stage (searchDocs: exact groups, candidates, exact Jaccard
 * verification, grouping) over `docs`, whose fingerprints are given. Old files are read only where
 * verification needs their text (candidate pairs, small documents), never fingerprinted again.
 */
export async function groupDocs(
  workers: ScanWorkers,
  signal: AbortSignal,
  docs: ScanDocs,
  skipped: SkippedFile[],
  options: GroupingOptions,
): Promise<ScanResult> {
  const t0 = performance.now();
  const sets = await smallSetsOf(workers, signal, docs, options.settings);
  const t1 = performance.now();
  const found = await searchDocs(workers, signal, { ...docs, status: docs.status.slice(), hi: docs.hi.slice(), lo: docs.lo.slice(), words: docs.words.slice() }, options.settings, sets, options);
  return {
    settings: options.settings,
    ...found.near,
    docs: found.docs,
    skipped,
    representative: found.representative,
    exactGroups: found.exactGroups,
    partial: false,
    timings: { readingMs: t1 - t0, fingerprintingMs: 0, indexingMs: found.indexingMs, groupingMs: found.groupingMs, totalMs: performance.now() - t0 },
  };
}

/**
 * The scan's doc `d` as a stored document with id `id`, or null when it never finished (pending).
 * Copies are stored as skipped with reason 'copy': their fingerprint is their original's, resolved by
 * content hash when the corpus is grouped (docsFromCorpus maps the reason back to DocStatus.copy).
 */
export function storedDocumentOf(docs: ScanDocs, d: number, id: number): NewDocument | null {
  const status = docs.status[d]!;
  if (status === DocStatus.pending) return null;
  const hashed = docs.hashHi[d] !== 0 || docs.hashLo[d] !== 0;
  const base: NewDocument = {
    id,
    path: docs.paths[d]!.replaceAll('\0', ''),
    size: docs.sizes[d]!,
    lastModified: docs.files[d]?.lastModified ?? 0,
    contentHash: hashed ? hex8(docs.hashHi[d]!) + hex8(docs.hashLo[d]!) : null,
    status: 'ok',
    hi: docs.hi[d]!,
    lo: docs.lo[d]!,
    words: docs.words[d]!,
    features: 0,
  };
  if (status === DocStatus.ok) return base;
  if (status === DocStatus.tooShort) return { ...base, status: 'too-short', skipReason: 'too-short', skipMessage: tooShortMessage(docs.words[d]!) };
  // A copy's fingerprint is its original's, resolved by content hash when the corpus is grouped.
  const reason = status === DocStatus.copy ? 'copy' : status === DocStatus.binary ? 'binary' : status === DocStatus.empty ? 'empty' : 'unreadable';
  return { ...base, status: 'skipped', skipReason: reason, skipMessage: reason === 'copy' ? 'Same text as another file.' : skipMessage(reason) };
}

function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}
