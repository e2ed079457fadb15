import { describe, expect, it } from 'vitest';
import { successorsOf } from '../../../src/corpus/corpus-removal.ts';
import { NO_ID, type DocId, type StorageIds } from '../../../src/core/ids.ts';
import type { ScanDocs } from '../../../src/scan/scan-result.ts';
import { DocStatus } from '../../../src/core/documents/document-status.ts';

/** Three identical texts (resolved: the copies carry the fingerprint), an edited one and an unsaved copy. */
function shown(): { docs: ScanDocs; storageIds: StorageIds } {
  const n = 5;
  const paths = ['c/a.txt', 'c/b.txt', 'c/c.txt', 'c/d.txt', 'c/e.txt'];
  return {
    docs: {
      count: n,
      paths,
      files: paths.map((p) => new File([], p)),
      sizes: Float64Array.of(10, 10, 10, 11, 10),
      status: new Uint8Array(n).fill(DocStatus.ok),
      flags: new Uint8Array(n),
      hi: Uint32Array.of(7, 7, 7, 9, 7),
      lo: Uint32Array.of(8, 8, 8, 1, 8),
      words: Uint32Array.of(60, 60, 60, 61, 60),
      hashHi: Uint32Array.of(1, 1, 1, 2, 1),
      hashLo: Uint32Array.of(5, 5, 5, 6, 5),
    },
    storageIds: Uint32Array.of(40, 12, 13, 14, NO_ID) as StorageIds,
  };
}

/** Positions in `shown()`. */
const at = (...positions: number[]) => positions as DocId[];

describe('successorsOf', () => {
  it('hands a removed head’s fingerprint to the first remaining saved member of its class, and to nobody else', () => {
    const out = successorsOf(shown(), at(0));
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ id: 12, path: 'c/b.txt', status: 'ok', hi: 7, lo: 8, words: 60 });
  });

  it('skips members that leave too or are not saved, and classes nobody leaves', () => {
    expect(successorsOf(shown(), at(0, 1, 2)).map((d) => d.id)).toEqual([]);
    expect(successorsOf(shown(), at(3))).toEqual([]);
    expect(successorsOf(shown(), at(1)).map((d) => d.path)).toEqual(['c/a.txt']);
    // Checked by `npx tsc -b`: positions are DocIds, not any number (a storage id would type-check as one).
    // @ts-expect-error plain numbers are not positions
    successorsOf(shown(), [1]);
  });
});
