/**
 * The file behind `simsift scan --cache FILE`: a scanned folder's documents (the columns the app's saved
 * corpus keeps: fingerprint, content hash, size, words, status, feature-set size) with each file's stat identity (size,
 * mtime, ctime, inode) and the verified pairs, so the next scan of the folder reads only what changed.
 * One binary file, written whole or not at all, checked by an XXH64 of its body when read back (a
 * checksum against damage, not an adversary, and cheap: every cached scan hashes the file twice, reading and rewriting it).
 */
import { readFile } from 'node:fs/promises';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import type { LoadedCorpus } from '../storage/corpus-repository.ts';
import type { VerifiedPairs } from '../storage/verified-pairs.ts';
import type { GroupTable } from '../core/groups/group-table.ts';
import { writeAtomicFile } from './atomic-file.ts';
import { xxh64Bytes } from '../core/simhash/fingerprint-kernel.ts';
import type { PackedSets } from '../core/groups/packed-sets.ts';
import { allocateDocColumn, docColumnBytes, type DocColumn, type DocColumnName } from '../core/documents/doc-columns.ts';
import type { StorageIds } from '../core/ids.ts';
import { SKETCH_BINS } from '../core/groups/minhash-sketch.ts';

const MAGIC = 'SIMSIFT-SCAN-CACHE\n';
/** Bumped when the layout changes: a cache of another version is not read (the scan reads every file). */
const CACHE_VERSION = 7;

/** A scan as the cache keeps it. Document positions are their stored ids (0..count-1, path order). */
export interface ScanCache {
  /** Real path of the scanned folder. */
  dir: string;
  /** Wall-clock ms when that scan began listing the folder: a file changed shortly before may have changed again unseen. */
  startedMs: number;
  settings: SimHashSettings;
  /** The fingerprint rule the documents were made with (core/simhash/fingerprint-rule.ts). */
  rule: number;
  /**
   * The documents; its `setSizes` and `sketches` let verification's size bound and sketch test decide a
   * pair with an unchanged document without reading it again (verify-candidates.ts).
   */
  corpus: LoadedCorpus;
  /** Per document: stat ctime and inode (size and mtime are the corpus's sizes and modified). */
  ctimeMs: Float64Array;
  ino: Float64Array;
  pairs: VerifiedPairs;
  /** Sampled passages of the fingerprinted documents (by position) for the containment search; null: made with containment off. */
  passages: PackedSets | null;
  /** The relation's groups by position, so the next scan groups again only the components its changes touch. */
  groups: { table: GroupTable; identical: Uint8Array };
  /**
   * Per document: the document whose text stands for it (the scan's exact classes), -1 when not
   * fingerprinted: the next scan restores the classes instead of grouping the whole folder again.
   */
  representative: Int32Array;
}

/** The JSON head of the file: everything but the columns, and each column's byte length. */
interface Head {
  version: number;
  dir: string;
  startedMs: number;
  settings: SimHashSettings;
  rule: number;
  count: number;
  /** How the paths column holds its text: one byte per UTF-16 code unit when every unit is below 256, else two. */
  pathText: 'latin1' | 'utf16le';
  skipReasons: [number, string][];
  pairs: { k: number; threshold: number; grouping: string; count: number; pinned: number[] };
  /** Documents with sampled passages, and their keys; absent: no passages kept. */
  passages?: { docs: number; keys: number };
  /** Groups and member slots of the saved groups. */
  groups: { count: number; slots: number };
  columns: Record<ColumnName, number>;
}

/**
 * The file's columns in the order they are written; the document columns keep the names format 5
 * wrote (`lastModified` holds the corpus's `modified`: mapped here and in `readScanCache` only).
 */
const COLUMNS = ['hi', 'lo', 'hashHi', 'hashLo', 'flags', 'sizes', 'lastModified', 'ctimeMs', 'ino', 'words', 'setSizes', 'sketches', 'paths', 'pairA', 'pairB', 'pairDistance', 'pairJaccard', 'histogram', 'passageDocs', 'passageOffsets', 'passageKeys', 'groupOffsets', 'groupMembers', 'groupJaccard', 'groupDistance', 'groupIdentical', 'groupOf', 'representative'] as const;
type ColumnName = (typeof COLUMNS)[number];

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/**
 * Writes the cache atomically (a temporary file renamed over `file` when whole). Paths are kept as
 * UTF-16 code units (one byte each when all are below 256), so names that are not UTF-8 (held as lone
 * surrogates, terminal-names.ts) come back exactly.
 */
export async function writeScanCache(file: string, cache: ScanCache): Promise<void> {
  const c = cache.corpus;
  const p = cache.pairs;
  const g = cache.groups.table;
  const joined = c.paths.join('\0');
  // One byte per unit when it fits (most names): half the bytes, and the paths come back as one-byte
  // strings, which the second scan compares with the walk's many times over.
  const pathText = /[^\0-\xff]/.test(joined) ? 'utf16le' : 'latin1';
  const paths = Buffer.from(joined, pathText);
  const columns: Record<ColumnName, Uint8Array> = {
    hi: bytesOf(c.hi),
    lo: bytesOf(c.lo),
    hashHi: bytesOf(c.hashHi),
    hashLo: bytesOf(c.hashLo),
    flags: c.storedFlags,
    sizes: bytesOf(c.sizes),
    lastModified: bytesOf(c.modified ?? new Float64Array(c.count)),
    ctimeMs: bytesOf(cache.ctimeMs),
    ino: bytesOf(cache.ino),
    words: bytesOf(c.words),
    setSizes: bytesOf(c.setSizes),
    sketches: bytesOf(c.sketches),
    paths,
    pairA: bytesOf(p.a),
    pairB: bytesOf(p.b),
    pairDistance: p.distance,
    pairJaccard: bytesOf(p.jaccard),
    histogram: bytesOf(p.histogram),
    passageDocs: bytesOf(cache.passages?.docs ?? new Uint32Array(0)),
    passageOffsets: bytesOf(cache.passages?.offsets ?? new Uint32Array(0)),
    passageKeys: bytesOf(cache.passages?.keys ?? new Uint32Array(0)),
    groupOffsets: bytesOf(g.offsets),
    groupMembers: bytesOf(g.members),
    groupJaccard: bytesOf(g.jaccardToReference),
    groupDistance: g.distanceToReference,
    groupIdentical: cache.groups.identical,
    groupOf: bytesOf(g.groupOf),
    representative: bytesOf(cache.representative),
  };
  const head: Head = {
    version: CACHE_VERSION,
    dir: cache.dir,
    startedMs: cache.startedMs,
    settings: cache.settings,
    rule: cache.rule,
    count: c.count,
    pathText,
    skipReasons: [...c.skipReasons],
    pairs: { k: p.k, threshold: p.threshold, grouping: p.grouping, count: p.count, pinned: [...(p.pinned ?? [])] },
    ...(cache.passages ? { passages: { docs: cache.passages.docs.length, keys: cache.passages.keys.length } } : {}),
    groups: { count: g.count, slots: g.members.length },
    columns: Object.fromEntries(COLUMNS.map((name) => [name, columns[name].byteLength])) as Record<ColumnName, number>,
  };
  const headBytes = Buffer.from(JSON.stringify(head), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(headBytes.byteLength);
  const body = [Buffer.from(MAGIC), length, headBytes, ...COLUMNS.map((name) => columns[name])];
  await writeAtomicFile(file, [...body, checksumOf(body)]);
}

/** The trailer: XXH64 (seed 0) of the body's bytes, its halves as two little-endian uint32 (lo, hi). */
const CHECKSUM_BYTES = 8;
function checksumOf(body: readonly Uint8Array[]): Uint8Array {
  const [hi, lo] = xxh64Bytes(body);
  return new Uint8Array(Uint32Array.of(lo, hi).buffer);
}

/**
 * The stored paths (NUL-separated, in `text`'s encoding), each decoded as a string of its own: split()
 * would give slices of one long string, which V8 compares through the slice each time, and the second
 * scan compares these paths with the walk's over and over (quick check, restore, merge, times).
 */
export function splitPaths(bytes: Buffer, text: 'latin1' | 'utf16le'): string[] {
  const paths: string[] = [];
  let start = 0;
  for (let end = nextNul(bytes, text, start); end >= 0; end = nextNul(bytes, text, start)) {
    paths.push(bytes.toString(text, start, end));
    start = end + (text === 'latin1' ? 1 : 2);
  }
  paths.push(bytes.toString(text, start));
  return paths;
}

/** Where the next NUL unit at or after `from` starts in `bytes` (-1: none). */
function nextNul(bytes: Buffer, text: 'latin1' | 'utf16le', from: number): number {
  if (text === 'latin1') return bytes.indexOf(0, from);
  for (let i = from; i + 1 < bytes.byteLength; i += 2) if (bytes[i] === 0 && bytes[i + 1] === 0) return i;
  return -1;
}

/** Why a cache file could not be used: said on stderr, then every file is read. */
export class CacheProblem extends Error {}

/** Reads a cache written by `writeScanCache`; null when the file does not exist, a CacheProblem when it cannot be used. */
export async function readScanCache(file: string): Promise<ScanCache | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CacheProblem(`cannot read it (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const damaged = (what: string) => new CacheProblem(`it is damaged (${what})`);
  if (bytes.byteLength < MAGIC.length + 4 + CHECKSUM_BYTES || bytes.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) {
    throw new CacheProblem('it is not a SimSift scan cache');
  }
  const body = bytes.subarray(0, bytes.byteLength - CHECKSUM_BYTES);
  if (!bytes.subarray(bytes.byteLength - CHECKSUM_BYTES).equals(checksumOf([body]))) throw damaged('checksum');
  const headLength = body.readUInt32LE(MAGIC.length);
  let at = MAGIC.length + 4 + headLength;
  if (at > body.byteLength) throw damaged('head');
  let head: Head;
  try {
    head = JSON.parse(body.subarray(MAGIC.length + 4, at).toString('utf8')) as Head;
  } catch {
    throw damaged('head');
  }
  if (head.version !== CACHE_VERSION) throw new CacheProblem(`it was written by another version of SimSift (cache version ${String(head.version)})`);
  // Each column copied out at its own offset: typed arrays need aligned buffers, and a view into the
  // file's one buffer would carry (and, transferred to a thread, detach) the whole file with it.
  const take = <T>(name: ColumnName, make: (buffer: ArrayBuffer) => T, width: number, count: number): T => {
    const length = head.columns?.[name];
    if (!Number.isInteger(length) || at + length > body.byteLength || (width > 0 && length !== width * count)) throw damaged(name);
    const copy = new Uint8Array(length);
    copy.set(body.subarray(at, at + length));
    at += length;
    return make(copy.buffer);
  };
  const n = head.count;
  const m = head.pairs?.count;
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(m) || m < 0) throw damaged('counts');
  const u32 = (b: ArrayBuffer) => new Uint32Array(b);
  const f64 = (b: ArrayBuffer) => new Float64Array(b);
  const u8 = (b: ArrayBuffer) => new Uint8Array(b);
  // A document column, in its core kind, from the stored column of that name (or `stored`).
  const doc = <C extends DocColumnName>(c: C, stored: ColumnName & string = c as ColumnName): DocColumn<C> =>
    take(stored, (buffer) => allocateDocColumn(c, n, buffer), docColumnBytes(c), n);
  const hi = doc('hi');
  const lo = doc('lo');
  const hashHi = doc('hashHi');
  const hashLo = doc('hashLo');
  const storedFlags = take('flags', u8, 1, n);
  const sizes = doc('sizes');
  const modified = doc('modified', 'lastModified');
  const ctimeMs = take('ctimeMs', f64, 8, n);
  const ino = take('ino', f64, 8, n);
  const words = doc('words');
  const setSizes = take('setSizes', u32, 4, n);
  const sketches = take('sketches', (b) => new Uint16Array(b), 2 * SKETCH_BINS, n);
  if (head.pathText !== 'latin1' && head.pathText !== 'utf16le') throw damaged('head');
  const paths = take('paths', (b) => (n === 0 ? [] : splitPaths(Buffer.from(b), head.pathText)), 0, n);
  const a = take('pairA', u32, 4, m);
  const b = take('pairB', u32, 4, m);
  const distance = take('pairDistance', u8, 1, m);
  const jaccard = take('pairJaccard', (x) => new Float32Array(x), 4, m);
  const histogram = take('histogram', u32, 0, 0);
  const pd = head.passages?.docs ?? 0;
  const pk = head.passages?.keys ?? 0;
  if (!Number.isInteger(pd) || pd < 0 || !Number.isInteger(pk) || pk < 0) throw damaged('passages');
  const passageDocs = take('passageDocs', u32, 4, pd);
  const passageOffsets = take('passageOffsets', u32, 4, head.passages ? pd + 1 : 0);
  const passageKeys = take('passageKeys', u32, 4, pk);
  const groups = takeGroups(head, n, take);
  const representative = take('representative', (x) => new Int32Array(x), 4, n);
  if (at !== body.byteLength) throw damaged('length');
  // A class is one text: its representative stands for itself, comes first, and has the member's content hash.
  for (let d = 0; d < n; d++) {
    const r = representative[d]!;
    if (r === -1) continue;
    if (!(r >= 0 && r <= d && representative[r] === r && hashHi[r] === hashHi[d] && hashLo[r] === hashLo[d])) throw damaged('classes');
  }
  for (let i = 0; i < pd; i++) if (!(passageDocs[i]! < n && passageOffsets[i]! <= passageOffsets[i + 1]! && passageOffsets[i + 1]! <= pk)) throw damaged('passages');
  if (paths.length !== n) throw damaged('paths');
  for (let p = 0; p < m; p++) if (!(a[p]! < b[p]! && b[p]! < n)) throw damaged('pairs');
  const skipReasons = new Map<number, string>();
  for (const [p, reason] of head.skipReasons ?? []) {
    if (!(Number.isInteger(p) && p >= 0 && p < n && typeof reason === 'string')) throw damaged('skips');
    skipReasons.set(p, reason);
  }
  const ids = new Uint32Array(n);
  for (let p = 0; p < n; p++) ids[p] = p;
  if (typeof head.startedMs !== 'number') throw damaged('head');
  return {
    dir: head.dir,
    startedMs: head.startedMs,
    settings: head.settings,
    rule: head.rule,
    corpus: { count: n, ids, hi, lo, storedFlags, paths, hashHi, hashLo, sizes, modified, words, skipReasons, setSizes, sketches, documentCount: n, nextId: n, revision: 0 },
    ctimeMs,
    ino,
    pairs: {
      k: head.pairs.k,
      threshold: head.pairs.threshold,
      grouping: head.pairs.grouping,
      a,
      b,
      distance,
      jaccard,
      histogram,
      count: m,
      pinned: Uint32Array.from(head.pairs.pinned ?? []) as StorageIds,
    },
    passages: head.passages ? { docs: passageDocs, offsets: passageOffsets, keys: passageKeys } : null,
    groups,
    representative,
  };
}

/** The saved groups' columns, checked: offsets rise within the slots, members and primary groups in range. */
function takeGroups(head: Head, n: number, take: <T>(name: ColumnName, make: (buffer: ArrayBuffer) => T, width: number, count: number) => T): ScanCache['groups'] {
  const count = head.groups?.count;
  const slots = head.groups?.slots;
  const damaged = () => new CacheProblem('it is damaged (groups)');
  if (!Number.isInteger(count) || count < 0 || !Number.isInteger(slots) || slots < 0) throw damaged();
  const offsets = take('groupOffsets', (b) => new Int32Array(b), 4, count + 1);
  const members = take('groupMembers', (b) => new Int32Array(b), 4, slots);
  const jaccardToReference = take('groupJaccard', (b) => new Float32Array(b), 4, slots);
  const distanceToReference = take('groupDistance', (b) => new Uint8Array(b), 1, slots);
  const identical = take('groupIdentical', (b) => new Uint8Array(b), 1, slots);
  const groupOf = take('groupOf', (b) => new Int32Array(b), 4, n);
  if (offsets[0] !== 0 || offsets[count] !== slots) throw damaged();
  const reference = new Int32Array(count);
  for (let g = 0; g < count; g++) {
    if (!(offsets[g]! < offsets[g + 1]!)) throw damaged();
    reference[g] = members[offsets[g]!]!;
  }
  for (let s = 0; s < slots; s++) if (!(members[s]! >= 0 && members[s]! < n)) throw damaged();
  for (let d = 0; d < n; d++) if (!(groupOf[d]! >= -1 && groupOf[d]! < count)) throw damaged();
  return { table: { count, groupOf, offsets, members, reference, jaccardToReference, distanceToReference }, identical };
}
