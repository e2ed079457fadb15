import { describe, expect, it } from 'vitest';
import { NO_ID } from '../../../src/core/ids.ts';
import type { DocId, StorageId, StorageIds } from '../../../src/core/ids.ts';

// The checks that matter are the @ts-expect-error lines: `npx tsc -b` type-checks tests (tsconfig.node.json).
const wantsStorageId = (id: StorageId): number => id;
const wantsDocId = (p: DocId): number => p;
const wantsStorageIds = (ids: StorageIds): number => ids.length;

describe('document ids are types', () => {
  it('keeps positions and storage ids apart at compile time, plain numbers at run time', () => {
    const position = 3 as DocId;
    const stored = 7 as StorageId;
    // @ts-expect-error a position is not a storage id
    wantsStorageId(position);
    // @ts-expect-error a storage id is not a position
    wantsDocId(stored);
    // @ts-expect-error a bare number is neither
    wantsStorageId(7);
    // @ts-expect-error an unbranded Uint32Array is not a storage-id column
    wantsStorageIds(new Uint32Array(2));
    expect(wantsStorageId(NO_ID)).toBe(0xffffffff);
    expect(wantsStorageIds(new Uint32Array(2) as StorageIds)).toBe(2);
  });
});
