/**
 * The shape of a scan's output, the contract between ingest and everything built on it (the
 * results UI, persistence, export): documents as parallel typed arrays indexed by doc id, the
 * skipped list, exact-duplicate groups, near-duplicate pairs and groups.
 */
import type { SimHashSettings } from '../core/simhash/settings.ts';
import type { GroupTable, ScoredPairs } from '../core/groups/group-table.ts';
import type { DuplicateRelation } from '../core/groups/duplicate-relation.ts';
import type { GroupList } from '../core/groups/exact-groups.ts';
import type { SkipReason } from '../core/documents/document-status.ts';
import type { ExternalCandidates } from '../core/index/external-pairs.ts';
import type { ContainedRelation, PassageSamples } from '../core/groups/contained-pairs.ts';
import type { DocColumnName, DocColumns } from '../core/documents/doc-columns.ts';
import type { DocId } from '../core/ids.ts';
import type { CandidateDecisions, KnownDecisions } from '../core/groups/candidate-decisions.ts';

/**
 * Every file the scan read (not hidden ones), by doc id (0..count-1, in the order the files were
 * listed): the document columns of core/documents/doc-columns.ts (`modified` optional, so code that
 * builds docs without it keeps working; the keep rules read it), beside the paths and files.
 */
export interface ScanDocs extends DocColumns<Exclude<DocColumnName, 'modified'>>, Partial<DocColumns<'modified'>> {
  count: number;
  /** Path relative to the dropped/chosen root, `/`-separated (e.g. `notes/a.txt`). */
  paths: string[];
  /**
   * The files themselves, so views can read a document's text again later: read them through
   * `docFile`, since a restored document's entry is its batch's stored Blob, shared (see `ranges`).
   */
  files: Blob[];
  /**
   * For documents restored with kept contents: bytes `[ranges[2d], ranges[2d + 1])` of `files[d]` are
   * the document (NaN: all of it). Why not a Blob per document: making one costs a round trip to the
   * browser process, paid for every document on every reload.
   */
  ranges?: Float64Array;
  /**
   * For a scan read through directory handles (a chosen or dropped folder where the browser offers
   * them): the handles its paths are under. `files[d]` is then the scan's `handleDocuments` File (or,
   * for a file whose contents the worker did not keep, the File it opened), and a resume reads the
   * paths through these handles again.
   */
  roots?: FileSystemHandle[];
}

/** A file that takes no part in the near-duplicate search, with a message for people. */
export interface SkippedFile {
  /** The doc id, or -1 for hidden files/folders that were never read. */
  docId: number;
  path: string;
  size: number;
  reason: SkipReason;
  message: string;
}

/**
 * A note on a file that was read and compared, for the Skipped/notes panel: something was done to
 * its text that the person should know (e.g. invalid UTF-8 bytes replaced; `DocFlag` marks it too).
 */
export interface DocNote {
  docId: number;
  path: string;
  message: string;
}

/** How near-duplicates are grouped: reference-centred (default; never chains) or connected components. */
export type Grouping = 'reference' | 'components';

/**
 * What exact verification cost and found (for the summary and the benchmarks): the counts of
 * CandidateDecisions are this search's own.
 */
export interface VerificationStats extends CandidateDecisions {
  /** Candidates whose Jaccard was measured now (re-reading both files in the ingest workers). */
  measured: number;
  /** Candidates whose Jaccard came from the cache (measured by an earlier grouping of this scan). */
  cached: number;
  /**
   * A reload whose saved pairs stood for the search decided nothing itself (the counts above are its
   * own: the saved pairs taken, nothing ruled out): how the search that found those pairs decided its
   * candidates, saved with them, or 'not known' (saved without them). Absent: this search decided them.
   */
  restored?: KnownDecisions;
  /** Documents read again for verification (a document may be read once per chunk it appears in). */
  docsRead: number;
  /** Near-duplicate pairs found by the exact short-document join, and how many of those the fingerprint search had missed. */
  joinPairs: number;
  joinOnly: number;
  /** Wall-clock milliseconds: measuring Jaccards, then grouping (join, groups, chaining checks). */
  verifyMs: number;
  groupMs: number;
}

/** How the result's candidates were decided, as the page tells it: this search's counts, or those a reload restored (perhaps not known). */
export function decisionsOf(v: VerificationStats): KnownDecisions {
  return v.restored ?? v;
}

/** The complete output of one scan. */
export interface ScanResult {
  settings: SimHashSettings;
  /** Largest Hamming distance of candidate pairs (the fingerprint search radius). */
  k: number;
  /** Exact-Jaccard threshold: a pair is a near-duplicate when the Jaccard of its feature sets is at least this. */
  similarityThreshold: number;
  /** How `groups` was built. */
  grouping: Grouping;
  /**
   * The near-duplicate pairs of representatives (what the UI lists and the CSV exports): candidates
   * within k whose exact Jaccard is >= `similarityThreshold`, plus pairs found by the exact join over
   * short documents (distance 255 when one of them has no fingerprint). Sorted by (a, b); a < b.
   */
  verified: ScoredPairs;
  /** Documents the person marked as references (kept across regroups). */
  pinned: DocId[];
  /**
   * The one near-duplicate relation (exact copies and verified pairs, A ~ B and B = B' give A ~ B'):
   * what the groups, the pair view's neighbour list and the pairs CSV are all derived from.
   */
  relation: DuplicateRelation;
  /**
   * `relation.groups`: each a reference and the documents identical or near-identical to it, exact
   * copies included; reference-centred by default, or connected components (then see `chained`).
   */
  groups: GroupTable;
  /**
   * Components mode: per group, CHAIN_NONE (0), CHAIN_FOUND (1: two members are not near-duplicates
   * although the component links them) or CHAIN_UNKNOWN (2: too large or too costly to check), see
   * core/groups/components.ts. Null in reference mode (reference groups never chain).
   */
  chained: Uint8Array | null;
  /** Candidate pairs per Hamming distance 0..k (before verification): the distance histogram. */
  histogram: Uint32Array;
  /** Per doc: 1 when it has fewer than SHORT_DOCUMENT_WORDS words (its near-duplicates come from exact verification only). */
  short: Uint8Array;
  /**
   * "A is contained in B" between distinct texts, each named by its first copy (lowest doc id, not
   * the representative, which depends on timing): A's feature set lies in B's at
   * containment >= `containmentThreshold`, with a Jaccard below `similarityThreshold` (never a group
   * member). Absent: not searched (a result from before containment, or made without passages).
   */
  contained?: ContainedRelation;
  /** The containment threshold the result was searched with (0: containment off). */
  containmentThreshold?: number;
  /**
   * Sampled passages of the fingerprinted documents (doc ids), which the containment search starts
   * from: kept with the result so a saved copy (the CLI's cache) can search again without reading.
   */
  passages?: PassageSamples;
  verification: VerificationStats;
  docs: ScanDocs;
  skipped: SkippedFile[];
  /**
   * Notes on files that were read and compared (invalid UTF-8 replaced). Saved with the corpus as
   * the document's note (restore-corpus.ts INVALID_UTF8_NOTE), without the byte count.
   */
  notes: DocNote[];
  /**
   * Per doc: the doc id whose text stands for it (among docs with the same normalized text, the
   * one that was fingerprinted), or -1 if the doc is not ok. Only representatives
   * (`representative[i] === i`) are indexed and appear in `pairs`.
   */
  representative: Int32Array;
  /** Docs with identical normalized text (2+ members each, status ok). */
  exactGroups: GroupList;
  /**
   * True when the scan was cancelled: docs still `pending` were never read; the documents finished
   * before the cancel are searched for exact and near-duplicates all the same (the result arrives a
   * moment after the cancel, while the state stays 'cancelled').
   */
  partial: boolean;
  timings: ScanTimings;
  /**
   * A scan over candidate pairs found outside (`simsift scan --pairs`): the pairs its fingerprints
   * contradict (a document without a fingerprint, another distance), left out of the candidates.
   */
  externalMismatched?: ExternalCandidates['mismatched'];
}

/** Wall-clock milliseconds per phase, measured on the main thread; the phases follow each other. */
export interface ScanTimings {
  /** From the start until every file is read (workers fingerprint meanwhile). */
  readingMs: number;
  /** From the last read until every file is fingerprinted. */
  fingerprintingMs: number;
  /** Exact grouping + all-pairs search (in the index worker). */
  indexingMs: number;
  groupingMs: number;
  totalMs: number;
}

/**
 * Where a document's bytes live: its own File (`file`), a range of a stored batch's Blob (`range`,
 * sliced only when read), a file under the scan's directory handles opened again by its path
 * (`handle`), or nowhere (`none`: restored without kept contents).
 */
export type DocSource =
  | { kind: 'file'; blob: Blob }
  | { kind: 'range'; blob: Blob; start: number; end: number }
  | { kind: 'handle'; path: string; open: (path: string) => Promise<File> }
  | { kind: 'none' };

/** How to open a document read through directory handles, by its path (see `handleDocuments`). */
const handleOpeners = new WeakMap<Blob, (path: string) => Promise<File>>();

let missingContents: File | null = null;

/**
 * The one File that stands for a saved document whose contents were not kept (a restore without kept
 * contents). Shared, so telling it apart costs nothing: asking a folder-input File its `size` is a
 * synchronous metadata fetch in Chromium, too slow for every candidate pair.
 * Ask `docSourceKind` rather than comparing with it.
 */
export function noContents(): File {
  missingContents ??= new File([], '');
  return missingContents;
}

/**
 * The kind of document `d`'s source (`DocSource`), without making one: the one place the stand-in
 * Files (`noContents`, `handleDocuments`) are told apart by identity.
 */
export function docSourceKind(docs: Pick<ScanDocs, 'files' | 'ranges'>, d: number): DocSource['kind'] {
  const file = docs.files[d]!;
  if (file === missingContents) return 'none';
  if (handleOpeners.has(file)) return 'handle';
  return docs.ranges && !Number.isNaN(docs.ranges[2 * d]!) ? 'range' : 'file';
}

/** Where document `d`'s bytes live. */
export function docSource(docs: Pick<ScanDocs, 'files' | 'ranges' | 'paths'>, d: number): DocSource {
  const file = docs.files[d]!;
  switch (docSourceKind(docs, d)) {
    case 'none':
      return { kind: 'none' };
    case 'handle':
      return { kind: 'handle', path: docs.paths[d]!, open: handleOpeners.get(file)! };
    case 'range':
      return { kind: 'range', blob: file, start: docs.ranges![2 * d]!, end: docs.ranges![2 * d + 1]! };
    default:
      return { kind: 'file', blob: file };
  }
}

/**
 * Document `d`'s bytes: its File, or its range of a stored batch's Blob (sliced only now, when read).
 * Not for a document read through a handle (`docSourceKind` 'handle'): use `docBlob`.
 */
export function docFile(docs: Pick<ScanDocs, 'files' | 'ranges'>, d: number): Blob {
  const file = docs.files[d]!;
  const start = docs.ranges ? docs.ranges[2 * d]! : Number.NaN;
  return Number.isNaN(start) ? file : file.slice(start, docs.ranges![2 * d + 1]);
}

/** `ranges` of `docs` at positions `at`; undefined when `docs` has none. */
export function rangesAt(docs: ScanDocs, at: readonly number[]): Float64Array | undefined {
  if (!docs.ranges) return undefined;
  const out = new Float64Array(2 * at.length);
  at.forEach((p, i) => {
    out[2 * i] = docs.ranges![2 * p]!;
    out[2 * i + 1] = docs.ranges![2 * p + 1]!;
  });
  return out;
}

/**
 * The File that stands for every document of one scan read through directory handles: the workers read
 * those files, and posting each File back to the page cost more than reading them (and made long
 * main-thread tasks). Views open such a document again by its path
 * with `open`, through `docBlob`. One per scan, so merged document lists keep telling them apart.
 */
export function handleDocuments(open: (path: string) => Promise<File>): File {
  const stands = new File([], '');
  handleOpeners.set(stands, open);
  return stands;
}

/** Whether document `d` is read through a directory handle (open it with `docBlob`, not `docFile`). */
export function isHandleDocument(docs: ScanDocs, d: number): boolean {
  return docSourceKind(docs, d) === 'handle';
}

/** Document `d`'s bytes: `docFile`, or for a document read through a handle, its file opened again by path. */
export async function docBlob(docs: ScanDocs, d: number): Promise<Blob> {
  const source = docSource(docs, d);
  return source.kind === 'handle' ? source.open(source.path) : docFile(docs, d);
}

/** The empty scored pair list. */
export function emptyScoredPairs(): ScoredPairs {
  return { a: new Uint32Array(0), b: new Uint32Array(0), distance: new Uint8Array(0), jaccard: new Float32Array(0), count: 0 };
}

/** The empty group list. */
export function emptyGroups(): GroupList {
  return { start: new Uint32Array(1), members: new Uint32Array(0), count: 0 };
}
