import { describe, expect, it } from 'vitest';
import { checksOneByOne } from '../../../src/scan/scan-source.ts';
import type { DropSnapshot } from '../../../src/scan/collect-files.ts';

describe('checksOneByOne (the progress hint to drop a large folder next time)', () => {
  const files = [new File(['x'], 'a.txt')];
  it('is true for a folder chosen through the folder input, asked on the page', () => {
    expect(checksOneByOne({ kind: 'file-list', files, sync: true })).toBe(true);
  });
  it('is false for a drop (walked through its handle, or read through its entries: it was dragged already) and for files chosen one by one', () => {
    const drop: DropSnapshot = { entries: [], looseFiles: [] };
    expect(checksOneByOne({ kind: 'drop', drop })).toBe(false);
    expect(checksOneByOne({ kind: 'file-list', files })).toBe(false);
  });
});
