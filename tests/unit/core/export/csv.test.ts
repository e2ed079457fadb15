import { describe, expect, it } from 'vitest';
import { escapeCsvCell, unescapeCsvCell, exportedPairCount, formatJaccard, PAIRS_CSV_HEADER, toCsv } from '../../../../src/core/export/csv.ts';
import { pairsCsvText } from '../../../fixtures/pairs-csv.ts';
import { buildDuplicateRelation } from '../../../../src/core/groups/duplicate-relation.ts';
import type { ScoredPairs } from '../../../../src/core/groups/group-table.ts';

/** Verified pairs from [a, b, distance, jaccard] tuples. */
const verified = (list: Array<[number, number, number, number]>): ScoredPairs => ({
  a: Uint32Array.from(list, (p) => p[0]),
  b: Uint32Array.from(list, (p) => p[1]),
  distance: Uint8Array.from(list, (p) => p[2]),
  jaccard: Float32Array.from(list, (p) => p[3]),
  count: list.length,
});

/** A minimal RFC 4180 reader, to check that what we write reads back to the same cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
      } else if (c === '"') {
        quoted = false;
        i++;
      } else {
        cell += c;
        i++;
      }
    } else if (c === '"') {
      quoted = true;
      i++;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
      i++;
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 2;
    } else {
      cell += c;
      i++;
    }
  }
  return rows;
}

describe('escapeCsvCell', () => {
  it('leaves plain cells alone', () => {
    expect(escapeCsvCell('docs/a.txt')).toBe('docs/a.txt');
    expect(escapeCsvCell('0.9988')).toBe('0.9988');
    expect(escapeCsvCell('')).toBe('');
  });

  it('quotes cells with commas, quotes, CR or LF and doubles the quotes', () => {
    expect(escapeCsvCell('a,b')).toBe('"a,b"');
    expect(escapeCsvCell('say "hi"')).toBe('"say ""hi"""');
    expect(escapeCsvCell('line1\nline2')).toBe('"line1\nline2"');
    expect(escapeCsvCell('x\ry')).toBe('"x\ry"');
  });

  it('neutralizes formula injection: = + - @ tab CR at the start', () => {
    expect(escapeCsvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(escapeCsvCell('+1')).toBe("'+1");
    expect(escapeCsvCell('-2+3')).toBe("'-2+3");
    expect(escapeCsvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(escapeCsvCell('\tcmd')).toBe("'\tcmd");
    expect(escapeCsvCell('\rcmd')).toBe('"\'\rcmd"');
    expect(escapeCsvCell('a=b')).toBe('a=b');
  });

  it("never writes two values as the same cell: a value starting with ' gets one too, and the reading rule gives each back", () => {
    // `=x.txt` and `'=x.txt` were both written `'=x.txt`.
    expect(escapeCsvCell('=x.txt')).toBe("'=x.txt");
    expect(escapeCsvCell("'=x.txt")).toBe("''=x.txt");
    expect(escapeCsvCell("'quoted'")).toBe("''quoted'");
    const values = ['=x.txt', "'=x.txt", "''=x.txt", 'x.txt', "'x.txt", "''x.txt", '+1', "'+1", "'", "''", '', '-', '\tx', "'\tx", 'a,b', "'a,b"];
    const cells = values.map(escapeCsvCell);
    expect(new Set(cells).size).toBe(values.length);
    // The README's rule: after CSV unquoting, drop one leading apostrophe if there is one.
    const [read] = parseCsv(toCsv([values]));
    expect(read.map(unescapeCsvCell)).toEqual(values);
  });
});

describe('toCsv and the pairs CSV', () => {
  it('writes CRLF records that read back to the same cells', () => {
    const rows = [['a', 'b,c'], ['"q"', 'multi\nline'], ['東京.txt', 'ok']];
    expect(parseCsv(toCsv(rows))).toEqual(rows);
  });

  it('writes the pairs table with estimate and Jaccard to 4 decimals and empty unknowns', () => {
    const paths = ['a.txt', 'dir/b, "2".txt', '=evil.txt', 'unknown.txt'];
    // a.txt and dir/b... identical; both near =evil.txt (distance 3); =evil.txt ~ unknown.txt with distance and Jaccard unknown.
    const relation = buildDuplicateRelation({
      count: 4,
      representative: Int32Array.from([0, 0, 2, 3]),
      verified: verified([[0, 2, 3, 0.87654], [2, 3, 255, NaN]]),
      lengths: [100, 100, 100, 100],
    });
    const file = pairsCsvText(relation, paths);
    expect(file[0]).toBe('\uFEFF'); // the UTF-8 BOM, for spreadsheets
    const csv = file.slice(1);
    expect(csv.split('\r\n')[0]).toBe('group,path_a,path_b,distance,similarity_estimate,jaccard,relation,containment');
    const estimate = Math.cos((Math.PI * 3) / 64).toFixed(4);
    expect(parseCsv(csv)).toEqual([
      [...PAIRS_CSV_HEADER],
      ['1', "'=evil.txt", 'a.txt', '3', estimate, '0.8765', 'near-duplicate', ''],
      ['1', "'=evil.txt", 'dir/b, "2".txt', '3', estimate, '0.8765', 'near-duplicate', ''],
      ['1', "'=evil.txt", 'unknown.txt', '', '', '', 'near-duplicate', ''],
      ['1', 'a.txt', 'dir/b, "2".txt', '0', '1.0000', '1.0000', 'near-duplicate', ''],
    ]);
    const empty = buildDuplicateRelation({ count: 0, representative: new Int32Array(0), verified: verified([]), lengths: [] });
    expect(parseCsv(pairsCsvText(empty, []).slice(1))).toEqual([[...PAIRS_CSV_HEADER]]);
  });

  it('writes contained documents after the near-duplicate pairs: excerpt then whole, no group, their containment', () => {
    const paths = ['excerpt.txt', 'whole.txt', 'copy.txt', '=other.txt'];
    const relation = buildDuplicateRelation({ count: 4, representative: Int32Array.from([0, 1, 1, 3]), verified: verified([]), lengths: [10, 100, 100, 50] });
    const contained = {
      inner: Uint32Array.from([0, 3]),
      outer: Uint32Array.from([1, 1]),
      containment: Float32Array.from([1, 0.92345]),
      jaccard: Float32Array.from([0.3, 0.45]),
      distance: Uint8Array.from([20, 12]),
      count: 2,
    };
    const csv = pairsCsvText(relation, paths, contained).slice(1);
    expect(parseCsv(csv)).toEqual([
      [...PAIRS_CSV_HEADER],
      ['1', 'whole.txt', 'copy.txt', '0', '1.0000', '1.0000', 'near-duplicate', ''],
      ['', 'excerpt.txt', 'whole.txt', '20', Math.cos((Math.PI * 20) / 64).toFixed(4), '0.3000', 'contained', '1.0000'],
      ['', "'=other.txt", 'whole.txt', '12', Math.cos((Math.PI * 12) / 64).toFixed(4), '0.4500', 'contained', '0.9234'],
    ]);
    // A document marked not a duplicate leaves its contained rows too.
    const skip = Uint8Array.from([1, 0, 0, 0]);
    expect(parseCsv(pairsCsvText(relation, paths, contained, skip).slice(1)).map((r) => r[1])).toEqual(['path_a', 'whole.txt', "'=other.txt"]);
  });
});

describe('formatJaccard', () => {
  it('never rounds a Jaccard below 1 up to 1.0000', () => {
    expect(formatJaccard(1)).toBe('1.0000');
    expect(formatJaccard(1 - 6e-7)).toBe('0.9999');
    expect(formatJaccard(0.99996)).toBe('0.9999');
    expect(formatJaccard(0.97123)).toBe('0.9712');
    expect(formatJaccard(Number.NaN)).toBe('');
  });
});

describe('the pairs CSV after "not a duplicate" marks', () => {
  // 0 and 1 identical; 2 near 3 and 4; 5, 6 and 7 identical and near 2.
  const relation = buildDuplicateRelation({
    count: 8,
    representative: Int32Array.from([0, 0, 2, 3, 4, 5, 5, 5]),
    verified: verified([
      [2, 3, 5, 0.82],
      [2, 4, 1, 0.97],
      [2, 5, 3, 0.9],
    ]),
    lengths: [50, 50, 50, 50, 50, 50, 50, 50],
  });
  const paths = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
  const rowsOf = (skip?: Uint8Array, separated?: Uint32Array) =>
    pairsCsvText(relation, paths, undefined, skip, separated).split('\r\n').slice(1, -1).map((r) => r.split(',').slice(1, 3).join('-'));

  it('a pair marked not a duplicate leaves only that pair; a document leaves all of its pairs; the count is the rows', () => {
    expect(rowsOf().length).toBe(relation.pairCount);
    const skip = new Uint8Array(8);
    const cases: Array<[number[], number[]]> = [
      [[], [3, 2]],
      [[2], []],
      [[2], [2, 3]],
      [[6], [2, 5, 7, 6]],
      [[5, 6], [5, 6, 0, 1]],
    ];
    for (const [docs, pairs] of cases) {
      skip.fill(0);
      for (const d of docs) skip[d] = 1;
      const separated = Uint32Array.from(pairs);
      const rows = rowsOf(skip, separated);
      expect(exportedPairCount(relation, skip, separated), `${docs} / ${pairs}`).toBe(rows.length);
      for (let i = 0; i < pairs.length; i += 2) {
        expect(rows).not.toContain(`${paths[pairs[i]]}-${paths[pairs[i + 1]]}`);
        expect(rows).not.toContain(`${paths[pairs[i + 1]]}-${paths[pairs[i]]}`);
      }
    }
    // 2 separated from 3 keeps its other matches: 4, and 5, 6 and 7.
    expect(rowsOf().filter((r) => r.split('-').includes('c')).length).toBe(5);
    const rows = rowsOf(undefined, Uint32Array.from([2, 3]));
    expect(rows.length).toBe(relation.pairCount - 1);
    expect(rows.filter((r) => r.split('-').includes('c')).length).toBe(4);
  });
});
