/**
 * The move panel says what the browser allows: without a folder picker, that the page cannot move files
 * and the command that can; with one but no handle of the scanned folder, the button that picks it again.
 * And the plan's bytes hashes for documents whose bytes were not kept are read through the folder acted on.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { QuarantineMove } from '../../../src/ui/keep/QuarantineMove.tsx';
import { hashMemberBytes } from '../../../src/ui/keep/plan-bytes.ts';
import { bytesHash } from '../../../src/core/export/plan.ts';
import { noContents, type ScanDocs } from '../../../src/scan/scan-result.ts';

const g = globalThis as { window?: { showDirectoryPicker?: unknown } };
const props = { folderName: 'corpus', scanRoot: null, scanned: {}, planRows: async () => [], planName: 'simsift-plan.json', marked: 2 };

describe('the move panel', () => {
  afterEach(() => {
    delete g.window;
  });

  it('without a folder picker: says the page cannot, and shows the command', () => {
    g.window = {};
    const html = renderToStaticMarkup(createElement(QuarantineMove, props));
    expect(html).toContain('This browser cannot let a page move files');
    expect(html).toContain('<code>simsift apply simsift-plan.json --root . --into ../quarantine --dry-run</code>');
    expect(html).not.toContain('<button');
  });

  it('with a picker but no handle of the scanned folder (a folder-input scan): asks for the same folder', () => {
    g.window = { showDirectoryPicker: () => undefined };
    const html = renderToStaticMarkup(createElement(QuarantineMove, props));
    expect(html).toContain('Pick the folder corpus…');
    expect(html).toContain('it is checked against the scan');
    expect(html).not.toContain('Move marked to quarantine');
  });
});

describe('the plan’s bytes hashes', () => {
  it('a document whose bytes were not kept is read through the folder acted on; others as the scan holds them', async () => {
    const kept = new TextEncoder().encode('kept bytes');
    const onDisk = new TextEncoder().encode('bytes on disk');
    const docs = { count: 2, paths: ['corpus/a.txt', 'corpus/b.txt'], files: [new File([kept], 'a.txt'), noContents()], sizes: new Float64Array([kept.length, onDisk.length]) } as unknown as ScanDocs;
    const members = new Int32Array([0, 1]);
    expect([...(await hashMemberBytes(docs, members)).keys()]).toEqual([0]);
    const opened: string[] = [];
    const reopen = async (path: string) => (opened.push(path), new Blob([onDisk]));
    const hashes = await hashMemberBytes(docs, members, reopen);
    expect(opened).toEqual(['corpus/b.txt']);
    expect(hashes.get(0)).toBe(bytesHash(kept));
    expect(hashes.get(1)).toBe(bytesHash(onDisk));
  });
});
