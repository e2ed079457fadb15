import { describe, expect, it } from 'vitest';
import { escapeCsvCell } from '../../../src/core/export/csv.ts';
import { pairsCsvText } from '../../fixtures/pairs-csv.ts';
import { buildDuplicateRelation } from '../../../src/core/groups/duplicate-relation.ts';
import { bandOf, cellReadings, pairKey, parseCsv, readPairsCsv, scorePairs } from '../../../bench/real-text/score-csv.ts';

const HEADER = 'group,path_a,path_b,distance,similarity_estimate,jaccard\r\n';
const paths = ['a.txt', 'dir/b,c.txt', 'say "hi".txt', '=SUM(1).txt', "'=x.txt", 'plain.txt'];
const ids = new Map(paths.map((p, i) => [p, i]));

describe('parseCsv', () => {
  it('reads quoted cells with commas, doubled quotes and line breaks', () => {
    expect(parseCsv('a,"b,c","say ""hi""","x\r\ny"\r\n1,,3,\n')).toEqual([
      ['a', 'b,c', 'say "hi"', 'x\r\ny'],
      ['1', '', '3', ''],
    ]);
  });

  it('rejects text after a closing quote and an unterminated quote', () => {
    expect(parseCsv('\uFEFFgroup,path_a\r\n1,a.txt\r\n')).toEqual([['group', 'path_a'], ['1', 'a.txt']]);
    expect(() => parseCsv('"a"b\r\n')).toThrow(/after a closing quote/);
    expect(() => parseCsv('"a\r\n')).toThrow(/unterminated/);
  });

  it('reads back every cell the export writes, one of its readings being the value', () => {
    for (const value of [...paths, '-x', '@y', '\tz', '+1', 'a"b,c', '']) {
      const cells = parseCsv(escapeCsvCell(value) + '\r\n')[0]!;
      expect(cells).toHaveLength(1);
      expect(cellReadings(cells[0]!)).toContain(value);
    }
  });
});

describe('cellReadings', () => {
  it('reads a cell by the export\'s rule: one leading apostrophe removed', () => {
    expect(cellReadings("'=SUM(1).txt")).toEqual(['=SUM(1).txt']);
    expect(cellReadings("''=x.txt")).toEqual(["'=x.txt"]);
    expect(cellReadings('a.txt')).toEqual(['a.txt']);
  });
});

describe('readPairsCsv', () => {
  it('maps quoted and formula-escaped paths to documents, unordered, counting repeats', () => {
    const csv =
      HEADER +
      '1,a.txt,"dir/b,c.txt",3,0.9,0.9\r\n' +
      '1,"dir/b,c.txt",a.txt,3,0.9,0.9\r\n' + // the same pair in the other order
      `2,"say ""hi"".txt",'=SUM(1).txt,0,1.0000,1.0000\r\n` +
      '3,plain.txt,missing.txt,1,0.99,0.95\r\n' +
      '4,a.txt,a.txt,0,1,1\r\n';
    const read = readPairsCsv(csv, ids);
    expect(read.rows).toBe(5);
    expect([...read.pairs].sort((x, y) => x - y)).toEqual([pairKey(0, 1, 6), pairKey(2, 3, 6)]);
    expect(read.duplicateRows).toBe(1);
    expect(read.selfRows).toBe(1);
    expect(read.unknownRows).toBe(1);
    expect(read.unknownPaths).toEqual(['missing.txt']);
  });

  it("reads a path that starts with an apostrophe, written with one more", () => {
    // "'=x.txt" is written "''=x.txt": one apostrophe removed gives the path.
    const read = readPairsCsv(HEADER + `1,''=x.txt,plain.txt,2,0.99,0.9\r\n`, ids);
    expect([...read.pairs]).toEqual([pairKey(4, 5, 6)]);
  });

  it('reads the file the export code writes, whatever the column order', () => {
    // '=SUM(1).txt' is an identical copy of 'say "hi".txt'; a.txt ~ 'dir/b,c.txt' at distance 5.
    const relation = buildDuplicateRelation({
      count: paths.length,
      representative: Int32Array.from([0, 1, 2, 2, 4, 5]),
      verified: { a: Uint32Array.of(0), b: Uint32Array.of(1), distance: Uint8Array.of(5), jaccard: Float32Array.of(0.85), count: 1 },
      lengths: paths.map(() => 100),
    });
    const csv = pairsCsvText(relation, paths);
    expect([...readPairsCsv(csv, ids).pairs].sort((x, y) => x - y)).toEqual([pairKey(0, 1, 6), pairKey(2, 3, 6)]);
    const reordered = 'path_b,x,path_a\r\na.txt,7,plain.txt\r\n';
    expect([...readPairsCsv(reordered, ids).pairs]).toEqual([pairKey(0, 5, 6)]);
  });

  it('counts only the rows of the relation asked for: near-duplicates by default, contained pairs in their direction', () => {
    const relation = buildDuplicateRelation({
      count: paths.length,
      representative: Int32Array.from([0, 1, 2, 3, 4, 5]),
      verified: { a: Uint32Array.of(0), b: Uint32Array.of(1), distance: Uint8Array.of(5), jaccard: Float32Array.of(0.85), count: 1 },
      lengths: paths.map(() => 100),
    });
    const contained = { inner: Uint32Array.of(5, 2), outer: Uint32Array.of(0, 0), containment: Float32Array.of(1, 0.95), jaccard: Float32Array.of(0.3, 0.4), distance: Uint8Array.of(20, 18), count: 2 };
    const csv = pairsCsvText(relation, paths, contained);
    const near = readPairsCsv(csv, ids);
    expect(near.rows).toBe(1);
    expect([...near.pairs]).toEqual([pairKey(0, 1, 6)]);
    const inside = readPairsCsv(csv, ids, 'contained');
    expect(inside.rows).toBe(2);
    expect([...inside.pairs].sort((x, y) => x - y)).toEqual([2 * 6 + 0, 5 * 6 + 0]);
  });

  it('refuses a file without the path columns', () => {
    expect(() => readPairsCsv('group,a,b\r\n', ids)).toThrow(/path_a/);
  });
});

describe('scorePairs', () => {
  it('gives precision, recall, F1 and recall per Jaccard band', () => {
    const n = 6;
    const truth = new Map([
      [pairKey(0, 1, n), 0.8],
      [pairKey(0, 2, n), 0.87],
      [pairKey(1, 2, n), 0.9],
      [pairKey(3, 4, n), 1],
    ]);
    const predicted = new Set([pairKey(0, 1, n), pairKey(3, 4, n), pairKey(4, 5, n)]);
    const s = scorePairs(predicted, truth, 1);
    expect(s.predicted).toBe(4);
    expect(s.truePositives).toBe(2);
    expect(s.precision).toBe(0.5);
    expect(s.recall).toBe(0.5);
    expect(s.f1).toBe(0.5);
    expect(s.bands.map((b) => [b.label, b.found, b.total])).toEqual([
      ['[0.80,0.85)', 1, 1],
      ['[0.85,0.90)', 0, 1],
      ['[0.90,0.95)', 0, 1],
      ['[0.95,1)', 0, 0],
      ['1', 1, 1],
    ]);
    expect(s.bands[3]!.recall).toBeNaN();
  });

  it('puts band edges in the upper band and only exact 1 in the last', () => {
    expect([0.79, 0.8, 0.85, 0.9, 0.95, 0.9999, 1].map(bandOf)).toEqual([-1, 0, 1, 2, 3, 3, 4]);
  });
});
