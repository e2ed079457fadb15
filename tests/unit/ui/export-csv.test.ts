import { describe, expect, it } from 'vitest';
import { pairCountInView, viewGroupsCsv, viewPairsCsv } from '../../../src/ui/export/export-csv.ts';

const table = {
  count: 2,
  offsets: Int32Array.from([0, 3, 5]),
  members: Int32Array.from([0, 1, 2, 3, 4]),
  distanceToReference: Uint8Array.from([0, 2, 255, 0, 0]),
  jaccardToReference: Float32Array.from([1, 0.875, 0.8125, 1, 1]),
};
const paths = ['ref.txt', '=HYPERLINK("x").txt', 'a,b.txt', 'c.txt', '-d.txt'];

describe('CSV of what the view shows', () => {
  it('writes the pairs of the shown groups, in view order, through the core pairs CSV', () => {
    const csv = viewPairsCsv(table, paths, Uint32Array.from([1, 0]));
    expect(csv.split('\r\n')).toEqual([
      'group,path_a,path_b,distance,similarity_estimate,jaccard',
      "2,c.txt,'-d.txt,0,1.0000,1.0000",
      `1,ref.txt,"'=HYPERLINK(""x"").txt",2,${Math.cos((Math.PI * 2) / 64).toFixed(4)},0.8750`,
      '1,ref.txt,"a,b.txt",,,0.8125',
      '',
    ]);
  });
  it('writes nothing but the header when the filter hides every group', () => {
    expect(viewPairsCsv(table, paths, new Uint32Array(0))).toBe('group,path_a,path_b,distance,similarity_estimate,jaccard\r\n');
    expect(pairCountInView(table, new Uint32Array(0))).toBe(0);
    expect(pairCountInView(table, Uint32Array.from([0, 1]))).toBe(3);
  });
  it('writes the groups CSV with exact groups marked', () => {
    expect(viewGroupsCsv(table, paths, Uint32Array.from([1]), Uint8Array.from([0, 1]))).toBe(
      "group,path,role,distance_to_reference\r\n2,c.txt,reference,0\r\n2,'-d.txt,exact-duplicate,0\r\n",
    );
  });
});
