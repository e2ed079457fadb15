import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { fileCounts } from '../../../src/app/file-counts.ts';
import { DocStatus } from '../../../src/core/documents/document-status.ts';
import type { ScanResult, SkippedFile } from '../../../src/scan/scan-result.ts';
import { filesSum, Summary } from '../../../src/ui/summary/Summary.tsx';
import { doneLine } from '../../../src/ui/progress/ScanProgress.tsx';
import { DEFAULT_SCAN_SETTINGS } from '../../../src/ui/shared/scan-settings.ts';

const skip = (docId: number, reason: SkippedFile['reason']): SkippedFile => ({ docId, path: `f${docId}`, size: 0, reason, message: '' });

describe('file counts', () => {
  it('scanned = compared + skipped, hidden files (never read) among the skipped; cancelled files apart', () => {
    const status = Uint8Array.from([DocStatus.ok, DocStatus.ok, DocStatus.binary, DocStatus.tooShort, DocStatus.empty, DocStatus.pending]);
    const result = {
      docs: { count: status.length, status } as ScanResult['docs'],
      skipped: [skip(2, 'binary'), skip(3, 'too-short'), skip(4, 'empty'), skip(-1, 'hidden')],
    };
    const c = fileCounts(result);
    expect(c).toEqual({ scanned: 6, compared: 2, skipped: 4, notRead: 1 });
    expect(c.scanned).toBe(c.compared + c.skipped);
    expect(filesSum(c.scanned, c.compared, c.skipped, c.notRead)).toBe('6 files scanned = 2 compared + 4 skipped. 1 file not read (the scan was cancelled first).');
  });
  it('a cancelled scan counts the exact copies its search never resolved as not read (they added up to nothing)', () => {
    // Seen cancelling a scan of 983 files early: "0 files scanned ... 980 files not read".
    const status = Uint8Array.from([DocStatus.copy, DocStatus.copy, DocStatus.pending]);
    const c = fileCounts({ docs: { count: status.length, status } as ScanResult['docs'], skipped: [] });
    expect(c).toEqual({ scanned: 0, compared: 0, skipped: 0, notRead: 3 });
  });
  it('the progress line and the summary say the same numbers, with labels that say what they count', () => {
    // 41 files read and 2 hidden: 43 scanned, as the summary counts them (32 compared + 11 skipped).
    const progress = { phase: 'grouping' as const, filesDone: 41, filesTotal: 41, filesListedOnly: 2, filesExcluded: 0, filesUnchanged: 0, checkingOneByOne: false, bytesDone: 2e6, bytesTotal: 2e6, bytesTotalKnown: true, bytesPerSecond: 0, secondsLeft: null, elapsedMs: 3000 };
    expect(doneLine(progress)).toBe('Scanned 43 files in 3 s (41 read, 2.0 MB; 2 hidden or unreadable, not read).');
    expect(doneLine({ ...progress, filesListedOnly: 0, filesTotal: 43 })).toBe('Scanned 43 files in 3 s (43 read, 2.0 MB).');
    // One file: "1 file", not "1 files".
    expect(doneLine({ ...progress, filesListedOnly: 0, filesTotal: 1 })).toMatch(/^Scanned 1 file in /);
    // A folder chosen again is the whole folder, as the summary counts it: the one changed file read, the rest unchanged
    // (it said "Scanned 4 files" of a second scan of 8,848 files, seen in Chromium).
    expect(doneLine({ ...progress, filesTotal: 1, filesUnchanged: 8_844, bytesTotal: 87e3 })).toBe(
      'Scanned 8,847 files in 3 s (1 read, 87 KB; 8,844 unchanged since saved, not read; 2 hidden or unreadable, not read).',
    );
    // Files the exclusions left out are named apart: never read, not documents, not counted as scanned.
    expect(doneLine({ ...progress, filesExcluded: 3 })).toBe('Scanned 43 files in 3 s (41 read, 2.0 MB; 2 hidden or unreadable, not read; 3 left out by your exclusions, not read).');
    const html = renderToStaticMarkup(
      createElement(Summary, { filesScanned: 43, compared: 32, skipped: 11, exactGroups: 1, nearGroups: 2, pairs: 3, identicalPairs: 1, settings: DEFAULT_SCAN_SETTINGS }),
    );
    expect(html).toContain('<dt>Files scanned</dt><dd>43</dd>');
    expect(html).toContain('<dt>Compared</dt><dd>32</dd>');
    expect(html).toContain('<dt>Skipped</dt><dd>11</dd>');
    expect(html).toContain('43 files scanned = 32 compared + 11 skipped.');
  });
});
