/**
 * CSV text for SimSift's exports: RFC 4180 quoting, spreadsheet formula-injection escaping, and the
 * pairs table (`group,path_a,path_b,distance,similarity_estimate,jaccard,relation,containment`) shared by
 * the app's "Export CSV" and `simsift scan`.
 */
import { neighboursOf, type DuplicateRelation } from '../groups/duplicate-relation.ts';

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
 * The rows `pairsCsvBytes` (pairs-csv-bytes.ts) writes with the same `skip` and `separated`: the relation's pairs less
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
