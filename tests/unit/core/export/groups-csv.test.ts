import { describe, expect, it } from 'vitest';
import { GROUPS_CSV_HEADER, groupsCsv, groupsCsvRows } from '../../../../src/core/export/groups-csv.ts';

const table = {
  count: 2,
  offsets: Int32Array.from([0, 3, 5]),
  members: Int32Array.from([2, 0, 1, 3, 4]),
  distanceToReference: Uint8Array.from([0, 4, 255, 0, 0]),
};
const paths = ['a.txt', '=SUM(A1).txt', 'notes/ref.txt', 'x/"q".txt', 'y/"q".txt'];

describe('groupsCsvRows', () => {
  it('lists each group reference first, with roles and distances (unknown = empty)', () => {
    expect(groupsCsvRows(table, paths)).toEqual([
      [...GROUPS_CSV_HEADER],
      ['1', 'notes/ref.txt', 'reference', '0'],
      ['1', 'a.txt', 'near-duplicate', '4'],
      ['1', '=SUM(A1).txt', 'near-duplicate', ''],
      ['2', 'x/"q".txt', 'reference', '0'],
      ['2', 'y/"q".txt', 'near-duplicate', '0'],
    ]);
  });
  it('follows the view order and marks members identical to their reference', () => {
    const rows = groupsCsvRows(table, paths, [1], [0, 0, 0, 0, 1]);
    expect(rows.slice(1)).toEqual([
      ['2', 'x/"q".txt', 'reference', '0'],
      ['2', 'y/"q".txt', 'exact-duplicate', '0'],
    ]);
  });
  it('has the documented header', () => {
    expect(GROUPS_CSV_HEADER.join(',')).toBe('group,path,role,distance_to_reference');
  });
});

describe('groupsCsv', () => {
  it('writes RFC 4180 records with quotes doubled and formula cells escaped', () => {
    expect(groupsCsv(table, paths)).toBe(
      '\uFEFFgroup,path,role,distance_to_reference\r\n' +
        '1,notes/ref.txt,reference,0\r\n' +
        '1,a.txt,near-duplicate,4\r\n' +
        "1,'=SUM(A1).txt,near-duplicate,\r\n" +
        '2,"x/""q"".txt",reference,0\r\n' +
        '2,"y/""q"".txt",near-duplicate,0\r\n',
    );
  });
  it('escapes hostile names as text', () => {
    const t = { count: 1, offsets: Int32Array.from([0, 2]), members: Int32Array.from([0, 1]), distanceToReference: Uint8Array.from([0, 2]) };
    const csv = groupsCsv(t, ['@cmd|calc.txt', '<img src=x onerror=alert(1)>, "x".txt']);
    expect(csv.split('\r\n')[1]).toBe("1,'@cmd|calc.txt,reference,0");
    expect(csv.split('\r\n')[2]).toBe('1,"<img src=x onerror=alert(1)>, ""x"".txt",near-duplicate,2');
  });
});
