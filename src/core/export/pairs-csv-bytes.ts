/**
 * The pairs CSV (Export CSV and `simsift scan`'s output, byte for byte), written straight to UTF-8
 * bytes: each path's escaped cell encoded once, numbers written digit by digit, rows into chunks of
 * about 1 MB (never one giant string: 1,000 identical files make 499,500 rows). Every pair of the
 * relation is one row, whatever grouping or filter the list shows: identical texts as distance 0 and
 * Jaccard 1, near-duplicates with their fingerprint distance, Charikar's estimate and exact Jaccard,
 * `relation` near-duplicate and no containment. Then each contained pair (an excerpt inside its whole)
 * as one row without a group: path_a the excerpt, path_b the whole, relation `contained` and its
 * containment |A ∩ B| / |A|. The BOM (`CSV_BOM`) first.
 */
import { similarityEstimate } from '../simhash/fingerprint64.ts';
import type { DuplicateRelation } from '../groups/duplicate-relation.ts';
import { forEachRelationPair } from '../groups/relation-pairs.ts';
import type { ContainedRelation } from '../groups/contained-pairs.ts';
import { CSV_BOM, PAIRS_CSV_HEADER, UNKNOWN_PAIR_DISTANCE, escapeCsvCell, formatJaccard, pairLookup, toCsv } from './csv.ts';

const CHUNK_BYTES = 1 << 20;
const COMMA = 0x2c;
const DOT = 0x2e;
const ZERO = 0x30;

/**
 * The pairs CSV of `relation` and `contained` over `paths`, as UTF-8 chunks of about 1 MB, BOM first;
 * without the pairs of `skip`ped documents (1 per doc) and the `separated` pairs.
 * `encodeCell`: an escaped path cell's bytes when they are not its UTF-8 (the CLI's names with invalid bytes).
 */
export function pairsCsvBytes(
  relation: DuplicateRelation,
  paths: readonly string[] | PathCells,
  contained?: ContainedRelation,
  skip?: ArrayLike<number>,
  separated?: Uint32Array,
  encodeCell?: (cell: string) => Uint8Array,
): Uint8Array[] {
  const cells = paths instanceof PathCells ? paths : new PathCells(paths, encodeCell);
  const apart = pairLookup(separated, cells.paths.length);
  const out = new CsvBytes(cells);
  out.ascii(CSV_BOM + toCsv([[...PAIRS_CSV_HEADER]]));
  const estimates = Array.from({ length: 65 }, (_, d) => encoder.encode(similarityEstimate(d).toFixed(4)));
  const nearTail = encoder.encode(',near-duplicate,\r\n');
  forEachRelationPair(relation, (group, a, b, distance, jaccard) => {
    if ((skip && (skip[a] === 1 || skip[b] === 1)) || apart?.(a, b)) return;
    out.uint(group);
    out.byte(COMMA);
    out.path(a);
    out.byte(COMMA);
    out.path(b);
    out.byte(COMMA);
    if (distance !== UNKNOWN_PAIR_DISTANCE) out.uint(distance);
    out.byte(COMMA);
    if (distance !== UNKNOWN_PAIR_DISTANCE) out.bytes(estimates[distance]!);
    out.byte(COMMA);
    out.fraction(jaccard);
    out.bytes(nearTail);
  });
  const containedMid = encoder.encode(',contained,');
  const crlf = encoder.encode('\r\n');
  for (let i = 0; i < (contained?.count ?? 0); i++) {
    if (skip && (skip[contained!.inner[i]!] === 1 || skip[contained!.outer[i]!] === 1)) continue;
    const distance = contained!.distance[i]!;
    out.byte(COMMA);
    out.path(contained!.inner[i]!);
    out.byte(COMMA);
    out.path(contained!.outer[i]!);
    out.byte(COMMA);
    out.uint(distance);
    out.byte(COMMA);
    out.bytes(estimates[distance]!);
    out.byte(COMMA);
    out.fraction(contained!.jaccard[i]!);
    out.bytes(containedMid);
    out.fraction(contained!.containment[i]!);
    out.bytes(crlf);
  }
  return out.finish();
}

const encoder = new TextEncoder();

/**
 * Each path's escaped CSV cell as bytes, encoded once into one arena: on first use, or every one at
 * once (`encodeAll`) before the relation is known (the index worker does while verification runs).
 */
export class PathCells {
  arena = new Uint8Array(1 << 16);
  private arenaAt = 0;
  /** Per path: where its encoded cell starts in the arena (-1: not yet encoded), and its length. */
  readonly cellStart: Int32Array;
  readonly cellLength: Int32Array;

  constructor(
    readonly paths: readonly string[],
    private readonly encodeCell?: (cell: string) => Uint8Array,
  ) {
    this.cellStart = new Int32Array(paths.length).fill(-1);
    this.cellLength = new Int32Array(paths.length);
  }

  /** Encodes every path's cell now. */
  encodeAll(): this {
    for (let d = 0; d < this.paths.length; d++) if (this.cellStart[d]! < 0) this.encode(d);
    return this;
  }

  encode(d: number): void {
    const cell = escapeCsvCell(this.paths[d]!);
    const given = this.encodeCell?.(cell);
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    const need = this.arenaAt + (given ? given.length : cell.length * 3);
    if (need > this.arena.length) {
      const grown = new Uint8Array(Math.max(need, this.arena.length * 2));
      grown.set(this.arena.subarray(0, this.arenaAt));
      this.arena = grown;
    }
    if (given) this.arena.set(given, this.arenaAt);
    const written = given ? given.length : encoder.encodeInto(cell, this.arena.subarray(this.arenaAt)).written;
    this.cellStart[d] = this.arenaAt;
    this.cellLength[d] = written;
    this.arenaAt += written;
  }
}

/** A growing list of byte chunks; path cells come from a PathCells arena. */
class CsvBytes {
  private chunks: Uint8Array[] = [];
  private buf = new Uint8Array(CHUNK_BYTES);
  private at = 0;

  constructor(private readonly cells: PathCells) {}

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    if (this.at > 0) this.chunks.push(this.buf.subarray(0, this.at));
    this.buf = new Uint8Array(Math.max(CHUNK_BYTES, n));
    this.at = 0;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.at++] = b;
  }

  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.buf.set(b, this.at);
    this.at += b.length;
  }

  /** ASCII-only or short text, encoded where it lands. */
  ascii(text: string): void {
    this.bytes(encoder.encode(text));
  }

  uint(n: number): void {
    this.room(10);
    let digits = 1;
    for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++;
    for (let i = this.at + digits - 1, x = n; i >= this.at; i--, x = Math.floor(x / 10)) this.buf[i] = ZERO + (x % 10);
    this.at += digits;
  }

  /**
   * `formatJaccard(x)` as bytes. The digits come from x * 10^4 rounded; where that product lies within
   * rounding error of a half (the one place it could differ from `toFixed`), the text itself is used.
   */
  fraction(x: number): void {
    if (!(x >= 0 && x <= 1)) return this.ascii(formatJaccard(x));
    const scaled = x * 10_000;
    if (Math.abs(scaled - Math.floor(scaled) - 0.5) < 1e-6) return this.ascii(formatJaccard(x));
    let n = Math.round(scaled);
    if (n === 10_000 && x < 1) n = 9999;
    this.room(6);
    const b = this.buf;
    b[this.at] = ZERO + (n >= 10_000 ? 1 : 0);
    b[this.at + 1] = DOT;
    const frac = n % 10_000;
    b[this.at + 2] = ZERO + Math.floor(frac / 1000);
    b[this.at + 3] = ZERO + (Math.floor(frac / 100) % 10);
    b[this.at + 4] = ZERO + (Math.floor(frac / 10) % 10);
    b[this.at + 5] = ZERO + (frac % 10);
    this.at += 6;
  }

  path(d: number): void {
    const cells = this.cells;
    if (cells.cellStart[d]! < 0) cells.encode(d);
    const start = cells.cellStart[d]!;
    const length = cells.cellLength[d]!;
    const arena = cells.arena;
    this.room(length);
    // A loop, not set(subarray): no view allocated per row.
    for (let i = 0; i < length; i++) this.buf[this.at + i] = arena[start + i]!;
    this.at += length;
  }

  finish(): Uint8Array[] {
    if (this.at > 0) this.chunks.push(this.buf.subarray(0, this.at));
    return this.chunks;
  }
}
