import { describe, expect, it } from 'vitest';
import { NO_ID } from '../../../src/core/ids.ts';
import type { DocId, StorageId, StorageIds } from '../../../src/core/ids.ts';
import type { RegroupOptions } from '../../../src/scan/scan-session.ts';
import type { VerifiedPairs } from '../../../src/storage/verified-pairs.ts';
import type { OpenPairIds } from '../../../src/app/use-result-view.ts';

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

  it('types the references a person pins and the pair they open where they are passed', () => {
    const pins = (o: RegroupOptions): number => o.pinned?.length ?? 0;
    // @ts-expect-error a reference is pinned by position, not by a bare number
    pins({ pinned: [3] });
    expect(pins({ pinned: [3 as DocId] })).toBe(1);
    // @ts-expect-error the saved pins are storage ids
    const saved: VerifiedPairs['pinned'] = new Uint32Array(1);
    // @ts-expect-error the open pair names positions
    const open: OpenPairIds = { a: 1, b: 2 };
    expect([saved, open].length).toBe(2);
  });
});
