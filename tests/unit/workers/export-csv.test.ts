import { describe, expect, it } from 'vitest';
import { exportApi } from '../../../src/workers/export-api.ts';
import { buildDuplicateRelation } from '../../../src/core/groups/duplicate-relation.ts';
import { pairsCsvText } from '../../fixtures/pairs-csv.ts';
import { indexApi } from '../../../src/workers/index-api.ts';

const table = {
  count: 2,
  offsets: Int32Array.from([0, 3, 5]),
  members: Int32Array.from([0, 1, 2, 3, 4]),
  distanceToReference: Uint8Array.from([0, 2, 255, 0, 0]),
};
const paths = ['ref.txt', '=HYPERLINK("x").txt', 'a,b.txt', 'c.txt', '-d.txt'];

/** The text of an export the worker built as a Blob (what a download saves). */
async function blobText(outcome: { blob: Blob | null; bytes: number }): Promise<string> {
  expect(outcome.blob!.type).toBe('text/csv;charset=utf-8');
  expect(outcome.blob!.size).toBe(outcome.bytes);
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await outcome.blob!.arrayBuffer());
}

describe('the CSV files the export worker builds', () => {
  it('saves every pair of the relation, whatever the view shows, as the core writes it', async () => {
    // 0, 1, 2 identical; 3 near 0 (J 0.85): 3 identical pairs + 3 near pairs.
    const relation = buildDuplicateRelation({
      count: 5,
      representative: Int32Array.from([0, 0, 0, 3, -1]),
      verified: { a: Uint32Array.of(0), b: Uint32Array.of(3), distance: Uint8Array.of(4), jaccard: Float32Array.of(0.85), count: 1 },
      lengths: [10, 10, 10, 10, 10],
    });
    const csv = await blobText(await exportApi.pairsCsv(relation, paths, null));
    expect(csv).toBe(pairsCsvText(relation, paths));
    expect(csv.split('\r\n').length - 2).toBe(6);
    // The UTF-8 BOM, so spreadsheets read non-ASCII names as UTF-8.
    expect(new TextEncoder().encode(csv).subarray(0, 3)).toEqual(Uint8Array.of(0xef, 0xbb, 0xbf));
    expect(csv.startsWith('\uFEFFgroup,path_a,')).toBe(true);
  });
  it('writes the groups CSV with members identical to their reference marked', async () => {
    expect(await blobText(await exportApi.groupsCsv(table, paths, Uint32Array.from([1]), Uint8Array.from([0, 0, 0, 0, 1]), null))).toBe(
      "\uFEFFgroup,path,role,distance_to_reference\r\n2,c.txt,reference,0\r\n2,'-d.txt,exact-duplicate,0\r\n",
    );
  });
});

describe("the pairs CSV built on the index thread (simsift scan's, while it writes its cache)", () => {
  it('is the core CSV as UTF-8, byte for byte, in chunks', () => {
    // 0, 1 identical; 2 near 0; a non-ASCII name and a name a spreadsheet would run.
    const relation = buildDuplicateRelation({
      count: 3,
      representative: Int32Array.from([0, 0, 2]),
      verified: { a: Uint32Array.of(0), b: Uint32Array.of(2), distance: Uint8Array.of(3), jaccard: Float32Array.of(0.9), count: 1 },
      lengths: [10, 10, 10],
    });
    const names = ['Überblick.txt', '=SUM(1).txt', 'notes, draft.txt'];
    const chunks = indexApi.pairsCsvBytes(relation, names);
    const bytes = Buffer.concat(chunks);
    expect(bytes.equals(Buffer.from(pairsCsvText(relation, names), 'utf8'))).toBe(true);
    expect(bytes.toString('utf8').split('\r\n')).toHaveLength(5);
  });
});
