/**
 * Scoring of an exported pairs CSV file against ground truth, pair by pair: reads the file as a user's
 * spreadsheet would (RFC 4180, the export's formula escape undone), turns each row into the unordered
 * pair {path_a, path_b}, and computes precision, recall, F1 and recall per Jaccard band.
 * Pure: no file system, so the unit test can feed it a hand-made CSV.
 */

/** One document pair, as the key a * n + b with a < b (document ids are indexes into the corpus' path list). */
export const pairKey = (a: number, b: number, n: number): number => (a < b ? a * n + b : b * n + a);

/**
 * Splits CSV text into records of cells (RFC 4180): cells separated by commas, records by CRLF or LF,
 * a quoted cell may hold commas, line breaks and doubled quotes (""). A final line break adds no record;
 * a leading UTF-8 BOM is dropped.
 */
export function parseCsv(text: string): string[][] {
  // The exports start with a UTF-8 BOM (for spreadsheets); it is not part of the first cell.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let i = 0;
  const n = text.length;
  const endRecord = () => {
    record.push(cell);
    records.push(record);
    record = [];
    cell = '';
  };
  while (i < n) {
    const c = text[i]!;
    if (c === '"' && cell === '') {
      // A quoted cell: runs to the quote that is not doubled.
      i++;
      for (;;) {
        if (i >= n) throw new Error('CSV: unterminated quoted cell');
        const q = text[i]!;
        if (q === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        cell += q;
        i++;
      }
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\r' && next !== '\n') throw new Error(`CSV: text after a closing quote at offset ${i}`);
      continue;
    }
    if (c === ',') {
      record.push(cell);
      cell = '';
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      endRecord();
      i += 2;
    } else if (c === '\n') {
      endRecord();
      i++;
    } else {
      cell += c;
      i++;
    }
  }
  if (cell !== '' || record.length > 0) endRecord();
  return records;
}

/**
 * The values a cell may stand for: exactly one since the export (src/core/export/csv.ts,
 * `escapeCsvCell`) also prefixes a value that starts with an apostrophe, so removing one leading
 * apostrophe gives the value back (kept as a list for the callers).
 */
export function cellReadings(cell: string): string[] {
  // The export's rule (README, "Reading the CSV from a script"): one leading apostrophe is removed, always.
  return [cell.startsWith("'") ? cell.slice(1) : cell];
}

export interface CsvPairs {
  /** Data rows (the header excluded). */
  rows: number;
  /** Distinct unordered pairs of known documents, as pairKey keys. */
  pairs: Set<number>;
  /** Rows that repeat a pair already seen (in either order). */
  duplicateRows: number;
  /** Rows pairing a document with itself. */
  selfRows: number;
  /** Cells that name no document of the corpus, or could name two (their rows count as wrong pairs). */
  unknownPaths: string[];
  /** Rows with an unknown path: predictions that cannot be right. */
  unknownRows: number;
}

/**
 * Reads an exported pairs CSV: finds path_a and path_b by the header (nothing else about the row
 * layout is assumed: neither the order of rows, nor which document of a pair comes first, nor the
 * other columns), maps both paths to document ids with `ids`, and collects the distinct unordered pairs.
 * Only rows of `relation` count (by the `relation` column; a file without one holds near-duplicates
 * only). Contained pairs are directional: each is the key a * n + b, path_a (the excerpt) being a.
 */
export function readPairsCsv(text: string, ids: ReadonlyMap<string, number>, relation: 'near-duplicate' | 'contained' = 'near-duplicate'): CsvPairs {
  const records = parseCsv(text);
  const header = records[0];
  if (!header) throw new Error('CSV: empty file, no header');
  const colA = header.indexOf('path_a');
  const colB = header.indexOf('path_b');
  if (colA < 0 || colB < 0) throw new Error(`CSV: header without path_a and path_b: ${header.join(',')}`);
  const colRelation = header.indexOf('relation');
  const n = ids.size;
  const out: CsvPairs = { rows: 0, pairs: new Set(), duplicateRows: 0, selfRows: 0, unknownPaths: [], unknownRows: 0 };
  const resolve = (cell: string | undefined): number => {
    const hits = cellReadings(cell ?? '').filter((p) => ids.has(p));
    if (hits.length === 1) return ids.get(hits[0]!)!;
    out.unknownPaths.push(cell ?? '');
    return -1;
  };
  for (let r = 1; r < records.length; r++) {
    if ((colRelation < 0 ? 'near-duplicate' : records[r]![colRelation]) !== relation) continue;
    out.rows++;
    const a = resolve(records[r]![colA]);
    const b = resolve(records[r]![colB]);
    if (a < 0 || b < 0) {
      out.unknownRows++;
      continue;
    }
    if (a === b) {
      out.selfRows++;
      continue;
    }
    const key = relation === 'contained' ? a * n + b : pairKey(a, b, n);
    if (out.pairs.has(key)) out.duplicateRows++;
    else out.pairs.add(key);
  }
  return out;
}

/** Jaccard bands of the per-band recall: [0.8, 0.85), [0.85, 0.9), [0.9, 0.95), [0.95, 1), exactly 1. */
export const JACCARD_BANDS: readonly { label: string; lo: number; hi: number }[] = [
  { label: '[0.80,0.85)', lo: 0.8, hi: 0.85 },
  { label: '[0.85,0.90)', lo: 0.85, hi: 0.9 },
  { label: '[0.90,0.95)', lo: 0.9, hi: 0.95 },
  { label: '[0.95,1)', lo: 0.95, hi: 1 },
  { label: '1', lo: 1, hi: Number.POSITIVE_INFINITY },
];

/** Index of the band holding Jaccard j (j >= 0.8), or -1 below the first band. */
export function bandOf(j: number): number {
  for (let b = JACCARD_BANDS.length - 1; b >= 0; b--) if (j >= JACCARD_BANDS[b]!.lo) return b;
  return -1;
}

export interface BandRecall {
  label: string;
  /** True pairs in the band. */
  total: number;
  /** Of those, pairs found. */
  found: number;
  /** found / total (NaN for an empty band). */
  recall: number;
}

export interface PairScores {
  /** Distinct predicted pairs plus rows with an unknown path (each a wrong prediction). */
  predicted: number;
  truePositives: number;
  positives: number;
  precision: number;
  recall: number;
  f1: number;
  bands: BandRecall[];
}

/**
 * Scores predicted pairs against the truth: `truth` maps every pair with Jaccard >= the threshold
 * (and only those) to its Jaccard, so a predicted pair not in it is a false positive. `wrongExtra`
 * adds predictions that are wrong whatever the truth (rows naming no document).
 */
export function scorePairs(predicted: ReadonlySet<number>, truth: ReadonlyMap<number, number>, wrongExtra = 0): PairScores {
  let tp = 0;
  for (const key of predicted) if (truth.has(key)) tp++;
  const bands = JACCARD_BANDS.map((b) => ({ label: b.label, total: 0, found: 0, recall: Number.NaN }));
  for (const [key, j] of truth) {
    const b = bandOf(j);
    if (b < 0) continue;
    bands[b]!.total++;
    if (predicted.has(key)) bands[b]!.found++;
  }
  for (const b of bands) b.recall = b.total === 0 ? Number.NaN : b.found / b.total;
  const count = predicted.size + wrongExtra;
  const precision = count === 0 ? 1 : tp / count;
  const recall = truth.size === 0 ? 1 : tp / truth.size;
  return {
    predicted: count,
    truePositives: tp,
    positives: truth.size,
    precision,
    recall,
    f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
    bands,
  };
}
