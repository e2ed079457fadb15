import { describe, expect, it } from 'vitest';
import { escapeCsvCell, formatJaccard, pairsCsv, pairsCsvRows, PAIRS_CSV_HEADER, toCsv } from '../../../../src/core/export/csv.ts';

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
});

describe('toCsv and pairsCsv', () => {
  it('writes CRLF records that read back to the same cells', () => {
    const rows = [['a', 'b,c'], ['"q"', 'multi\nline'], ['東京.txt', 'ok']];
    expect(parseCsv(toCsv(rows))).toEqual(rows);
  });

  it('writes the pairs table with estimate and Jaccard to 4 decimals and empty unknowns', () => {
    const paths = ['a.txt', 'dir/b, "2".txt', '=evil.txt'];
    const csv = pairsCsv(
      {
        group: [1, 1, 2],
        a: [0, 0, 1],
        b: [1, 2, 2],
        distance: [0, 3, 255],
        jaccard: [1, 0.87654, NaN],
        count: 3,
      },
      paths,
    );
    expect(csv.split('\r\n')[0]).toBe('group,path_a,path_b,distance,similarity_estimate,jaccard');
    expect(parseCsv(csv)).toEqual([
      [...PAIRS_CSV_HEADER],
      ['1', 'a.txt', 'dir/b, "2".txt', '0', '1.0000', '1.0000'],
      ['1', 'a.txt', "'=evil.txt", '3', Math.cos((Math.PI * 3) / 64).toFixed(4), '0.8765'],
      ['2', 'dir/b, "2".txt', "'=evil.txt", '', '', ''],
    ]);
    expect(pairsCsvRows({ group: [], a: [], b: [], distance: [], jaccard: [], count: 0 }, [])).toEqual([
      [...PAIRS_CSV_HEADER],
    ]);
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
