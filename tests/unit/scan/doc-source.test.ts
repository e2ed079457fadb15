import { describe, expect, it } from 'vitest';
import { docBlob, docSource, docSourceKind, handleDocuments, isHandleDocument, noContents } from '../../../src/scan/scan-result.ts';
import { allocateDocColumns, DOC_COLUMN_NAMES } from '../../../src/core/documents/doc-columns.ts';
import type { ScanDocs } from '../../../src/scan/scan-result.ts';

describe('where a document\'s bytes live (DocSource)', () => {
  it('tells a File, a stored range, a handle and no contents apart', async () => {
    const own = new File(['own text'], 'a.txt');
    const batch = new Blob(['xxrangeyy']);
    const opened = new File(['through the handle'], 'c.txt');
    const handle = handleDocuments(async (path) => (path === 'c.txt' ? opened : new File([], path)));
    const docs: ScanDocs = {
      count: 4,
      paths: ['a.txt', 'b.txt', 'c.txt', 'd.txt'],
      files: [own, batch, handle, noContents()],
      ranges: Float64Array.of(Number.NaN, Number.NaN, 2, 7, Number.NaN, Number.NaN, Number.NaN, Number.NaN),
      ...allocateDocColumns(DOC_COLUMN_NAMES, 4),
    };
    expect([0, 1, 2, 3].map((d) => docSourceKind(docs, d))).toEqual(['file', 'range', 'handle', 'none']);
    expect(docSource(docs, 0)).toEqual({ kind: 'file', blob: own });
    expect(docSource(docs, 1)).toEqual({ kind: 'range', blob: batch, start: 2, end: 7 });
    expect(docSource(docs, 2)).toMatchObject({ kind: 'handle', path: 'c.txt' });
    expect(docSource(docs, 3)).toEqual({ kind: 'none' });
    expect([0, 1, 2, 3].map((d) => isHandleDocument(docs, d))).toEqual([false, false, true, false]);
    const texts = await Promise.all([0, 1, 2, 3].map(async (d) => (await docBlob(docs, d)).text()));
    expect(texts).toEqual(['own text', 'range', 'through the handle', '']);
  });

  it('never takes an empty File of a person\'s for missing contents', () => {
    const docs = { files: [new File([], 'empty.txt')], paths: ['empty.txt'] };
    expect(docSourceKind(docs, 0)).toBe('file');
  });
});
