/**
 * CSV text for SimSift's exports: RFC 4180 quoting, spreadsheet formula-injection escaping, and the
 * near-duplicate pairs table (`group,path_a,path_b,distance,similarity_estimate,jaccard`) shared by
 * the app's "Export CSV" and `simsift scan`.
 */
import { similarityEstimate } from '../simhash/fingerprint64.ts';
import { walkRelationPairs, type DuplicateRelation } from '../groups/duplicate-relation.ts';

/** Header of the pairs CSV. */
export const PAIRS_CSV_HEADER = ['group', 'path_a', 'path_b', 'distance', 'similarity_estimate', 'jaccard'] as const;

/**
 * The UTF-8 byte order mark that starts every exported CSV file: without it Excel reads a CSV as the
 * system's ANSI code page and shows non-ASCII names as mojibake. CSV readers in scripts should strip
 * it (Python: encoding='utf-8-sig').
 */
export const CSV_BOM = '\uFEFF';

/** Distance value meaning "unknown" (written as an empty cell). */
export const UNKNOWN_PAIR_DISTANCE = 255;

/** Characters that make a spreadsheet treat a cell as a formula (OWASP CSV injection list). */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Characters that force RFC 4180 quoting. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell, ready to join with commas: a cell starting with = + - @ tab or CR gets a leading
 * apostrophe so Excel, LibreOffice and Google Sheets show it as text instead of running it as a
 * formula; a cell containing a comma, a double quote, CR or LF is wrapped in double quotes with its
 * quotes doubled (RFC 4180). Numbers the exports write never start with those characters.
 */
export function escapeCsvCell(value: string): string {
  let cell = FORMULA_START.test(value) ? `'${value}` : value;
  if (NEEDS_QUOTES.test(cell)) cell = `"${cell.replace(/"/g, '""')}"`;
  return cell;
}

/** Rows of cells to CSV text: cells escaped, joined by commas, each record ended by CRLF (RFC 4180). */
export function toCsv(rows: readonly (readonly string[])[]): string {
  let out = '';
  for (const row of rows) out += row.map(escapeCsvCell).join(',') + '\r\n';
  return out;
}

/** Pairs to export, as parallel arrays (the shape the app's pairs-in-view and the CLI produce). */
export type CsvPairs = {
  /** 1-based group number of each pair. */
  group: ArrayLike<number>;
  a: ArrayLike<number>;
  b: ArrayLike<number>;
  /** Hamming distance; UNKNOWN_PAIR_DISTANCE (255) for unknown. */
  distance: ArrayLike<number>;
  /** Exact Jaccard of the two feature sets; NaN for not computed. */
  jaccard: ArrayLike<number>;
  count: number;
};

/** Formats a 0..1 measure with 4 decimals (fixed, locale-independent). */
function fraction(x: number): string {
  return Number.isFinite(x) ? x.toFixed(4) : '';
}

/**
 * The pairs CSV's rows as unquoted cells, header first: group, both paths (looked up in `paths` by
 * document id), distance, Charikar's similarity estimate cos(pi * d / 64) and the exact Jaccard,
 * both with 4 decimals; unknown values are empty cells.
 */
export function pairsCsvRows(pairs: CsvPairs, paths: readonly string[]): string[][] {
  const rows: string[][] = [[...PAIRS_CSV_HEADER]];
  for (let i = 0; i < pairs.count; i++) {
    const d = pairs.distance[i];
    const known = d !== UNKNOWN_PAIR_DISTANCE;
    rows.push([
      String(pairs.group[i]),
      paths[pairs.a[i]],
      paths[pairs.b[i]],
      known ? String(d) : '',
      known ? fraction(similarityEstimate(d)) : '',
      fraction(pairs.jaccard[i]),
    ]);
  }
  return rows;
}

/** The complete pairs CSV text (header and one CRLF-terminated record per pair). */
export function pairsCsv(pairs: CsvPairs, paths: readonly string[]): string {
  return toCsv(pairsCsvRows(pairs, paths));
}

/**
 * The pairs CSV of the whole near-duplicate relation, header first, streamed as chunks of about
 * `rowsPerChunk` records (never one giant string: 1,000 identical files make 499,500 rows). Every
 * pair of the relation is one row, whatever grouping or filter the list shows: identical texts as
 * distance 0 and Jaccard 1, near-duplicates with their fingerprint distance, Charikar's estimate and
 * exact Jaccard. The first chunk starts with the UTF-8 BOM (`CSV_BOM`). This is the app's "Export
 * CSV" and `simsift scan`'s output, byte for byte.
 */
export function* relationCsvChunks(relation: DuplicateRelation, paths: readonly string[], rowsPerChunk = 4096): Generator<string> {
  const header = CSV_BOM + toCsv([[...PAIRS_CSV_HEADER]]);
  // Escaped paths are computed once per document, not once per row.
  const escaped = new Array<string | undefined>(paths.length);
  const cell = (d: number) => (escaped[d] ??= escapeCsvCell(paths[d]));
  const estimate = new Array<string>(65);
  for (let d = 0; d <= 64; d++) estimate[d] = fraction(similarityEstimate(d));
  let chunk = header;
  const append = (group: number, a: number, b: number, distance: number, jaccard: number) => {
    const known = distance !== UNKNOWN_PAIR_DISTANCE;
    chunk += `${group},${cell(a)},${cell(b)},${known ? distance : ''},${known ? estimate[distance] : ''},${fraction(jaccard)}\r\n`;
  };
  for (const _ of walkRelationPairs(relation, append, rowsPerChunk)) {
    yield chunk;
    chunk = '';
  }
  if (chunk !== '') yield chunk;
}
