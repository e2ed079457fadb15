/**
 * CSV text for SimSift's exports: RFC 4180 quoting, spreadsheet formula-injection escaping, and the
 * pairs table (`group,path_a,path_b,distance,similarity_estimate,jaccard,relation,containment`) shared by
 * the app's "Export CSV" and `simsift scan`.
 */
import { similarityEstimate } from '../simhash/fingerprint64.ts';
import { neighboursOf, type DuplicateRelation } from '../groups/duplicate-relation.ts';
import { walkRelationPairs } from '../groups/relation-pairs.ts';
import type { ContainedRelation } from '../groups/contained-pairs.ts';

/** Header of the pairs CSV. */
export const PAIRS_CSV_HEADER = ['group', 'path_a', 'path_b', 'distance', 'similarity_estimate', 'jaccard', 'relation', 'containment'] as const;

/**
 * The UTF-8 byte order mark that starts every exported CSV file: without it Excel reads a CSV as the
 * system's ANSI code page and shows non-ASCII names as mojibake. CSV readers in scripts should strip
 * it (Python: encoding='utf-8-sig').
 */
export const CSV_BOM = '\uFEFF';

/** Distance value meaning "unknown" (written as an empty cell). */
export const UNKNOWN_PAIR_DISTANCE = 255;

/**
 * Cells that get a leading apostrophe: those a spreadsheet would run as a formula (OWASP CSV injection
 * list: = + - @ tab CR), and those that already start with an apostrophe, so that every cell starting
 * with one has exactly one added and a reader removes exactly one (`'=x.txt` is written `''=x.txt`,
 * never `'=x.txt` like the path `=x.txt`).
 */
const PREFIXED_START = /^[=+\-@\t\r']/;
/** Characters that force RFC 4180 quoting. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell, ready to join with commas: a cell starting with = + - @ tab or CR gets a leading
 * apostrophe so Excel, LibreOffice and Google Sheets show it as text instead of running it as a
 * formula, and so does a cell starting with an apostrophe, so the escape is unambiguous: read back,
 * a cell that starts with `'` loses exactly that one apostrophe. A cell containing a comma, a double
 * quote, CR or LF is then wrapped in double quotes with its quotes doubled (RFC 4180). Numbers the
 * exports write never start with those characters. `unescapeCsvCell` is the reading rule.
 */
export function escapeCsvCell(value: string): string {
  let cell = PREFIXED_START.test(value) ? `'${value}` : value;
  if (NEEDS_QUOTES.test(cell)) cell = `"${cell.replace(/"/g, '""')}"`;
  return cell;
}

/**
 * A cell's value as `escapeCsvCell` was given it, from the cell as a CSV reader returns it (quotes
 * already removed): one leading apostrophe removed, if there is one. The README states this rule.
 */
export function unescapeCsvCell(cell: string): string {
  return cell.startsWith("'") ? cell.slice(1) : cell;
}

/** Rows of cells to CSV text: cells escaped, joined by commas, each record ended by CRLF (RFC 4180). */
export function toCsv(rows: readonly (readonly string[])[]): string {
  let out = '';
  for (const row of rows) out += row.map(escapeCsvCell).join(',') + '\r\n';
  return out;
}

/** Formats a 0..1 measure with 4 decimals (fixed, locale-independent). */
function fraction(x: number): string {
  return Number.isFinite(x) ? x.toFixed(4) : '';
}

/**
 * Formats a Jaccard with 4 decimals, never rounding up to 1: one changed word in a 5-million-word
 * file is J = 0.9999994, and "1.0000" would tell a person the two texts have the same features.
 */
export function formatJaccard(x: number): string {
  if (!Number.isFinite(x)) return '';
  const text = x.toFixed(4);
  return text === '1.0000' && x < 1 ? '0.9999' : text;
}

/**
 * The pairs CSV of the whole near-duplicate relation, header first, streamed as chunks of about
 * `rowsPerChunk` records (never one giant string: 1,000 identical files make 499,500 rows). Every
 * pair of the relation is one row, whatever grouping or filter the list shows: identical texts as
 * distance 0 and Jaccard 1, near-duplicates with their fingerprint distance, Charikar's estimate and
 * exact Jaccard, `relation` near-duplicate and no containment. Then each of `contained` (an excerpt
 * inside its whole) as one row without a group: path_a the excerpt, path_b the whole, relation
 * `contained` and its containment |A ∩ B| / |A|. The first chunk starts with the UTF-8 BOM (`CSV_BOM`).
 * This is the app's "Export CSV" and `simsift scan`'s output, byte for byte.
 */
export function* relationCsvChunks(
  relation: DuplicateRelation,
  paths: readonly string[],
  rowsPerChunk = 4096,
  skip?: ArrayLike<number>,
  separated?: Uint32Array,
  contained?: ContainedRelation,
): Generator<string> {
  const apart = pairLookup(separated, paths.length);
  const header = CSV_BOM + toCsv([[...PAIRS_CSV_HEADER]]);
  // Escaped paths are computed once per document, not once per row.
  const escaped = new Array<string | undefined>(paths.length);
  const cell = (d: number) => (escaped[d] ??= escapeCsvCell(paths[d]));
  const estimate = new Array<string>(65);
  for (let d = 0; d <= 64; d++) estimate[d] = fraction(similarityEstimate(d));
  let chunk = header;
  const append = (group: number, a: number, b: number, distance: number, jaccard: number) => {
    // A document the person said is not a duplicate (the keep panel's ignore list): its pairs are left out.
    if (skip && (skip[a] === 1 || skip[b] === 1)) return;
    // A pair the person said is not a duplicate: only that row is left out.
    if (apart?.(a, b)) return;
    const known = distance !== UNKNOWN_PAIR_DISTANCE;
    chunk += `${group},${cell(a)},${cell(b)},${known ? distance : ''},${known ? estimate[distance] : ''},${formatJaccard(jaccard)},near-duplicate,\r\n`;
  };
  for (const _ of walkRelationPairs(relation, append, rowsPerChunk)) {
    yield chunk;
    chunk = '';
  }
  // Contained pairs after them, excerpt (path_a) then whole (path_b): no group, they are not members.
  for (let i = 0; i < (contained?.count ?? 0); i++) {
    const a = contained!.inner[i];
    const b = contained!.outer[i];
    if (skip && (skip[a] === 1 || skip[b] === 1)) continue;
    const distance = contained!.distance[i];
    chunk += `,${cell(a)},${cell(b)},${distance},${estimate[distance]},${formatJaccard(contained!.jaccard[i])},contained,${formatJaccard(contained!.containment[i])}\r\n`;
    if ((i + 1) % rowsPerChunk === 0) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}

/**
 * The pairs in `flat` (a0, b0, a1, b1, …) as a lookup, either order; null when there are none. A flag per
 * document answers most rows without building a key, so the export's row loop stays allocation-free.
 */
export function pairLookup(flat: Uint32Array | undefined, count: number): ((a: number, b: number) => boolean) | null {
  if (!flat || flat.length < 2) return null;
  const involved = new Uint8Array(count);
  const keys = new Set<string>();
  for (let i = 0; i + 1 < flat.length; i += 2) {
    const [x, y] = flat[i] < flat[i + 1] ? [flat[i], flat[i + 1]] : [flat[i + 1], flat[i]];
    involved[x] = involved[y] = 1;
    keys.add(`${x},${y}`);
  }
  return (a, b) => involved[a] === 1 && involved[b] === 1 && keys.has(a < b ? `${a},${b}` : `${b},${a}`);
}

/**
 * The rows `relationCsvChunks` writes with the same `skip` and `separated`: the relation's pairs less
 * those of skipped documents and the separated pairs. Walks only the marked documents' neighbours, so
 * the page can show it beside the Export button without walking every pair.
 */
export function exportedPairCount(relation: DuplicateRelation, skip?: ArrayLike<number>, separated?: Uint32Array): number {
  let rows = relation.pairCount;
  const skipped = (d: number) => skip?.[d] === 1;
  if (skip) {
    for (let d = 0; d < skip.length; d++) {
      if (!skipped(d)) continue;
      // A pair of two skipped documents is counted once, at its lower id.
      for (const n of neighboursOf(relation, d)) if (!skipped(n.doc) || n.doc > d) rows--;
    }
  }
  if (separated) {
    const seen = new Set<string>();
    for (let i = 0; i + 1 < separated.length; i += 2) {
      const a = Math.min(separated[i], separated[i + 1]);
      const b = Math.max(separated[i], separated[i + 1]);
      const key = `${a},${b}`;
      if (a === b || seen.has(key) || skipped(a) || skipped(b)) continue;
      seen.add(key);
      if (neighboursOf(relation, a).some((n) => n.doc === b)) rows--;
    }
  }
  return rows;
}
