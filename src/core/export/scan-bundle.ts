/**
 * The scan bundle: a finished `simsift scan` as the page opens it (`simsift scan DIR --bundle FILE`).
 * It carries what the page needs to show the scan truthfully without fingerprinting anything again:
 * the settings (features, weights, k, threshold, grouping, exclusions), each document's columns as the
 * scan holds them (path, size, modification time, status, fingerprint, content hash, words) and every
 * verified pair with its distance and exact Jaccard. One binary file: a magic line, a JSON head, the
 * columns (little-endian typed arrays), and a SHA-256 of all that, so a damaged file is refused whole.
 */
import type { Exclusions } from '../documents/exclusions.ts';
import { DOC_STATUS_NAME, DocStatus } from '../documents/document-status.ts';
import type { SimHashSettings } from '../simhash/settings.ts';
import { FINGERPRINT_RULE } from '../simhash/fingerprint-rule.ts';
import { MAX_FEATURE_N } from '../simhash/settings.ts';
import { concatBytes } from './fingerprints-parquet.ts';
import { docColumnConstructor, type DocColumnName, type DocColumns } from '../documents/doc-columns.ts';

const MAGIC = 'SIMSIFT-SCAN-BUNDLE\n';
/** Bumped when the layout changes; a bundle of another version is refused with the versions named. */
export const BUNDLE_VERSION = 1;
/** The file name ending `simsift scan --bundle` suggests and the page's file picker offers. */
export const BUNDLE_EXTENSION = '.simsift';

/**
 * The document columns a bundle stores, in file order: version 1's list, kept as written (a column
 * added to the core's table is not in a bundle until BUNDLE_VERSION says so).
 */
const DOC_COLUMNS = ['sizes', 'modified', 'status', 'flags', 'hi', 'lo', 'words', 'hashHi', 'hashLo'] as const satisfies readonly DocColumnName[];

/**
 * Each document as the scan holds it (the ScanDocs columns of src/scan, in path order); `modified` is
 * in whole ms since the epoch (what a browser's File.lastModified says).
 */
export interface BundleDocuments extends DocColumns<(typeof DOC_COLUMNS)[number]> {
  count: number;
  /** Relative to the scanned folder, `/`-separated. */
  paths: string[];
}

/** The verified pairs by document position (a < b), as the scan accepted them. */
export interface BundlePairs {
  count: number;
  a: Uint32Array;
  b: Uint32Array;
  distance: Uint8Array;
  jaccard: Float32Array;
  /** Candidate pairs of distinct texts per Hamming distance (the page's histogram). */
  histogram: Uint32Array;
}

/** A `simsift scan` result, whole. */
export interface ScanBundle {
  /** The SimSift version that wrote it. */
  simsift: string;
  /** The fingerprint rule its fingerprints were made by (core/simhash/fingerprint-rule.ts). */
  rule: number;
  /** The scanned folder's absolute real path, as the CLI saw it. */
  root: string;
  /** Its last path part: the folder the page asks for. */
  name: string;
  /** When the scan began listing the folder (ms since the epoch). */
  scannedAt: number;
  settings: SimHashSettings;
  k: number;
  /** True when k followed the corpus size (no --k). */
  kAuto: boolean;
  threshold: number;
  grouping: 'reference' | 'components';
  /** The scan's --exclude, --min-size and --max-size (files it never read). */
  exclusions: Exclusions;
  documents: BundleDocuments;
  pairs: BundlePairs;
}

/** Why a file cannot be opened as a bundle: said to the person as it is. */
export class BundleProblem extends Error {}

type Head = Omit<ScanBundle, 'documents' | 'pairs'> & { format: string; version: number; count: number; pairCount: number; columns: Record<ColumnName, number> };

const PAIR_COLUMNS = ['a', 'b', 'distance', 'jaccard'] as const;
const COLUMNS = [...DOC_COLUMNS, 'paths', ...PAIR_COLUMNS, 'histogram'] as const;
type ColumnName = (typeof COLUMNS)[number];
type Typed = Float64Array | Float32Array | Uint32Array | Uint16Array | Uint8Array;
type Kind = { new (b: ArrayBuffer): Typed; BYTES_PER_ELEMENT: number };
/** Each column's typed-array kind (the document columns' from the core's table): read and written by the same loop. */
const KIND: Record<ColumnName, Kind> = {
  ...(Object.fromEntries(DOC_COLUMNS.map((c): [string, Kind] => [c, docColumnConstructor(c)])) as Record<(typeof DOC_COLUMNS)[number], Kind>),
  paths: Uint16Array,
  a: Uint32Array,
  b: Uint32Array,
  distance: Uint8Array,
  jaccard: Float32Array,
  histogram: Uint32Array,
};

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Paths as UTF-16 code units joined by NUL: a name that is not UTF-8 (lone surrogates, the CLI's) comes back exactly. */
function pathUnits(paths: readonly string[]): Uint16Array {
  const text = paths.join('\0');
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  return units;
}

function pathsOf(units: Uint16Array, count: number): string[] {
  if (count === 0) return units.length === 0 ? [] : ['\0'];
  let text = '';
  // In slices: fromCharCode takes its units as arguments, and the stack is finite.
  for (let i = 0; i < units.length; i += 8192) text += String.fromCharCode(...units.subarray(i, i + 8192));
  return text.split('\0');
}

async function sha256(parts: readonly Uint8Array[]): Promise<Uint8Array> {
  // concatBytes makes a fresh (never shared) buffer.
  return new Uint8Array(await crypto.subtle.digest('SHA-256', concatBytes(parts) as Uint8Array<ArrayBuffer>));
}

/** The bundle's bytes, in parts to write one after the other (the last is the SHA-256 of the others). */
export async function encodeScanBundle(bundle: ScanBundle): Promise<Uint8Array[]> {
  const { documents: d, pairs: p } = bundle;
  const columns: Record<ColumnName, Uint8Array> = {
    ...(Object.fromEntries(DOC_COLUMNS.map((c) => [c, bytesOf(d[c])])) as Record<(typeof DOC_COLUMNS)[number], Uint8Array>),
    paths: bytesOf(pathUnits(d.paths)),
    a: bytesOf(p.a),
    b: bytesOf(p.b),
    distance: p.distance,
    jaccard: bytesOf(p.jaccard),
    histogram: bytesOf(p.histogram),
  };
  const { documents: _d, pairs: _p, ...rest } = bundle;
  const head: Head = {
    format: 'simsift-scan-bundle',
    version: BUNDLE_VERSION,
    ...rest,
    count: d.count,
    pairCount: p.count,
    columns: Object.fromEntries(COLUMNS.map((name) => [name, columns[name].byteLength])) as Record<ColumnName, number>,
  };
  const headBytes = new TextEncoder().encode(JSON.stringify(head));
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, headBytes.byteLength, true);
  const body = [new TextEncoder().encode(MAGIC), length, headBytes, ...COLUMNS.map((name) => columns[name])];
  return [...body, await sha256(body)];
}

/** What a file that is not a bundle looks like it is, for the message. */
function foreignKind(bytes: Uint8Array): string {
  const start = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, 200)).replace(/^\uFEFF/, '');
  if (start.startsWith('SIMSIFT-SCAN-CACHE')) return 'a scan cache (simsift scan --cache), not a bundle';
  if (start.startsWith('PAR1')) return 'a Parquet file (the fingerprints or pairs export), not a bundle';
  if (/^\{\s*"format"\s*:\s*"simsift-plan"/.test(start)) return 'a keep plan (JSON), not a bundle';
  if (start.startsWith('group,path,role')) return 'a keep plan (CSV), not a bundle';
  if (start.startsWith('group,path_a,path_b')) return 'the pairs CSV, not a bundle: it holds no fingerprints, sizes or times';
  return 'not a SimSift scan bundle';
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Throws a BundleProblem unless the head's settings are ones this version can use. */
function checkHead(head: Head): void {
  const bad = (what: string) => new BundleProblem(`It is damaged (${what}).`);
  const s = head.settings as unknown;
  const f = isObject(s) ? s.features : null;
  const settingsOk =
    isObject(s) &&
    isObject(f) &&
    ['word-shingle', 'word', 'char-ngram'].includes(f.kind as string) &&
    Number.isInteger(f.n) &&
    (f.n as number) >= 1 &&
    (f.n as number) <= MAX_FEATURE_N &&
    ['binary', 'tf', 'tfidf'].includes(s.weights as string) &&
    typeof s.stopWords === 'boolean';
  if (!settingsOk) throw bad('settings');
  if (!Number.isInteger(head.k) || head.k < 0 || head.k > 64 || typeof head.kAuto !== 'boolean') throw bad('k');
  if (!(typeof head.threshold === 'number' && head.threshold > 0 && head.threshold <= 1)) throw bad('threshold');
  if (head.grouping !== 'reference' && head.grouping !== 'components') throw bad('grouping');
  if (typeof head.root !== 'string' || typeof head.name !== 'string' || head.name === '' || head.name.includes('/')) throw bad('folder');
  if (typeof head.scannedAt !== 'number' || typeof head.simsift !== 'string') throw bad('head');
  const e = head.exclusions as unknown;
  const strings = (x: unknown) => Array.isArray(x) && x.every((v) => typeof v === 'string');
  const size = (x: unknown) => x === null || (typeof x === 'number' && x >= 0);
  if (!isObject(e) || !strings(e.patterns) || !strings(e.extensions) || !size(e.minSize) || !size(e.maxSize)) throw bad('exclusions');
}

const KNOWN_STATUS = new Set(Object.keys(DOC_STATUS_NAME).map(Number));

/** Throws a BundleProblem unless every column holds values a scan can have written. */
function checkColumns(d: BundleDocuments, p: BundlePairs): void {
  const bad = (what: string) => new BundleProblem(`It is damaged (${what}).`);
  const seen = new Set<string>();
  for (let i = 0; i < d.count; i++) {
    const path = d.paths[i]!;
    if (path === '' || path.startsWith('/') || path.split('/').some((part) => part === '' || part === '.' || part === '..') || seen.has(path)) throw bad(`path ${JSON.stringify(path)}`);
    seen.add(path);
    if (!(d.sizes[i]! >= 0) || !(d.modified[i]! >= 0) || !Number.isFinite(d.modified[i]!)) throw bad('sizes or times');
    const status = d.status[i]!;
    if (!KNOWN_STATUS.has(status) || status === DocStatus.pending) throw bad('status');
  }
  for (let i = 0; i < p.count; i++) {
    const j = p.jaccard[i]!;
    if (!(p.a[i]! < p.b[i]! && p.b[i]! < d.count) || p.distance[i]! > 64 || !(j >= 0 && j <= 1)) throw bad('pairs');
  }
}

/**
 * Reads a bundle's bytes, checking everything before anything is used: the magic (a CSV, a plan, a
 * cache or a Parquet file is named as what it is), the SHA-256, the format version and the
 * fingerprint rule (a bundle of another SimSift version is refused with both versions), the settings
 * and every column. Throws a BundleProblem with a sentence for people.
 */
export async function decodeScanBundle(bytes: Uint8Array): Promise<ScanBundle> {
  const magic = new TextEncoder().encode(MAGIC);
  if (bytes.byteLength < magic.length + 4 + 32 || !magic.every((x, i) => bytes[i] === x)) throw new BundleProblem(`This file is ${foreignKind(bytes)}.`);
  const body = bytes.subarray(0, bytes.byteLength - 32);
  const sum = await sha256([body]);
  if (!sum.every((x, i) => bytes[body.byteLength + i] === x)) throw new BundleProblem('It is damaged (its checksum does not match: the file was cut short or changed).');
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  const headLength = view.getUint32(magic.length, true);
  let at = magic.length + 4 + headLength;
  if (at > body.byteLength) throw new BundleProblem('It is damaged (head).');
  let head: Head;
  try {
    head = JSON.parse(new TextDecoder().decode(body.subarray(magic.length + 4, at))) as Head;
  } catch {
    throw new BundleProblem('It is damaged (head).');
  }
  if (!isObject(head) || head.format !== 'simsift-scan-bundle') throw new BundleProblem('It is damaged (head).');
  if (head.version !== BUNDLE_VERSION) {
    const newer = typeof head.version === 'number' && head.version > BUNDLE_VERSION;
    throw new BundleProblem(
      `It was written by ${newer ? 'a newer' : 'another'} version of SimSift (${String(head.simsift)}, bundle format ${String(head.version)}); this page reads format ${BUNDLE_VERSION}: ` +
        `${newer ? 'open it in that version, or scan again with this one' : 'scan the folder again with this version'}.`,
    );
  }
  if (head.rule !== FINGERPRINT_RULE) {
    throw new BundleProblem(`Its fingerprints were made by another version of SimSift (${String(head.simsift)}, fingerprint rule ${String(head.rule)}; this page uses rule ${FINGERPRINT_RULE}): scan the folder again with this version.`);
  }
  checkHead(head);
  const n = head.count;
  const m = head.pairCount;
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(m) || m < 0) throw new BundleProblem('It is damaged (counts).');
  const expected = (name: ColumnName) => (name === 'paths' || name === 'histogram' ? -1 : (DOC_COLUMNS as readonly string[]).includes(name) ? n : m);
  const out = {} as Record<ColumnName, Typed>;
  for (const name of COLUMNS) {
    const length = head.columns?.[name];
    const kind = KIND[name];
    const count = expected(name);
    if (!Number.isInteger(length) || at + length > body.byteLength || length % kind.BYTES_PER_ELEMENT !== 0 || (count >= 0 && length !== count * kind.BYTES_PER_ELEMENT)) {
      throw new BundleProblem(`It is damaged (${name}).`);
    }
    // Copied out: a typed array needs its offset aligned to its element size.
    out[name] = new kind(body.slice(at, at + length).buffer);
    at += length;
  }
  if (at !== body.byteLength) throw new BundleProblem('It is damaged (length).');
  const paths = pathsOf(out.paths as Uint16Array, n);
  if (paths.length !== n) throw new BundleProblem('It is damaged (paths).');
  const documents: BundleDocuments = {
    count: n,
    paths,
    ...(Object.fromEntries(DOC_COLUMNS.map((c) => [c, out[c]])) as DocColumns<(typeof DOC_COLUMNS)[number]>),
  };
  const pairs: BundlePairs = {
    count: m,
    a: out.a as Uint32Array,
    b: out.b as Uint32Array,
    distance: out.distance as Uint8Array,
    jaccard: out.jaccard as Float32Array,
    histogram: out.histogram as Uint32Array,
  };
  checkColumns(documents, pairs);
  const { format: _f, version: _v, count: _c, pairCount: _m, columns: _cols, ...rest } = head;
  return { ...rest, documents, pairs };
}

/**
 * How a chosen folder's listing (paths starting with the chosen folder's name) maps the bundle's
 * paths: `prefix` is put before each bundle path. The person chose the scanned folder itself (its
 * name + '/'), or the one folder it held (`simsift scan PARENT` with PARENT holding only that folder:
 * ''). `matched` of the bundle's documents are listed at their path; 0: the folder does not match.
 */
export function matchFolder(bundle: Pick<ScanBundle, 'documents'>, listed: readonly string[]): { prefix: string; matched: number; chosen: string } {
  const chosen = listed[0]?.split('/')[0] ?? '';
  const have = new Set(listed);
  const count = (prefix: string) => bundle.documents.paths.reduce((n, path) => n + (have.has(prefix + path) ? 1 : 0), 0);
  const asItself = count(`${chosen}/`);
  const asHeld = count('');
  return asHeld > asItself ? { prefix: '', matched: asHeld, chosen } : { prefix: `${chosen}/`, matched: asItself, chosen };
}

/**
 * The absolute folder the page's paths are relative to, as the CLI's machine names it (the plan's
 * `root`): the bundle's root when the person chose the folder it held (the paths are the bundle's), its
 * parent when they chose the scanned folder itself under the same name (the paths gained that name);
 * null when the chosen folder has another name (the page's paths then name no folder there).
 */
export function pageRootOf(bundle: Pick<ScanBundle, 'root' | 'name'>, match: { prefix: string; chosen: string }): string | null {
  if (match.prefix === '') return bundle.root;
  if (match.chosen !== bundle.name) return null;
  // The root as the CLI wrote it: a POSIX or a Windows path.
  const cut = Math.max(bundle.root.lastIndexOf('/'), bundle.root.lastIndexOf('\\'));
  if (cut < 0) return null;
  const parent = bundle.root.slice(0, cut);
  return parent === '' || /^[A-Za-z]:$/.test(parent) ? parent + bundle.root[cut] : parent;
}

/**
 * The folders a person may choose beside the bundle: the scanned folder itself and, when every path
 * lies in one folder (`simsift scan PARENT` with PARENT holding only it), that folder.
 */
export function foldersToChoose(bundle: Pick<ScanBundle, 'name' | 'documents'>): string[] {
  const first = bundle.documents.paths.map((path) => (path.includes('/') ? path.slice(0, path.indexOf('/')) : ''));
  const held = first.length > 0 && first[0] !== '' && first.every((f) => f === first[0]) ? first[0]! : null;
  return held === null || held === bundle.name ? [bundle.name] : [bundle.name, held];
}
