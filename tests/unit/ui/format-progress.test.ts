import { describe, expect, it } from 'vitest';
import { checkingHint, PHASE_LABEL, progressFigures } from '../../../src/ui/progress/format-progress.ts';
import type { ScanProgress } from '../../../src/scan/scan-store.ts';

const base: ScanProgress = {
  phase: 'reading',
  filesDone: 10,
  filesTotal: 100,
  filesListedOnly: 0,
  filesExcluded: 0,
  filesUnchanged: 0,
  checkingOneByOne: false,
  bytesDone: 5e6,
  bytesTotal: 50e6,
  bytesTotalKnown: false,
  bytesPerSecond: 1e6,
  secondsLeft: 45,
  elapsedMs: 5000,
};

describe('progressFigures', () => {
  it('prints an estimated total that still holds, with the time left', () => {
    expect(progressFigures(base)).toEqual({
      files: '10 of 100 files',
      bytes: '5.0 MB of about 50 MB',
      rate: '1.0 MB/s',
      left: 'about 45 s left',
    });
    expect(progressFigures({ ...base, bytesTotalKnown: true }).bytes).toBe('5.0 MB of 50 MB');
  });
  it('never prints a total below what is done ("63 MB of about 252 KB") or a zero one ("117 MB of about 0 B")', () => {
    const huge = progressFigures({ ...base, bytesDone: 63e6, bytesTotal: 252e3, secondsLeft: 0 });
    expect(huge.bytes).toBe('63 MB read');
    expect(huge.left).toBeNull();
    const none = progressFigures({ ...base, filesDone: 0, bytesDone: 117e6, bytesTotal: 0, secondsLeft: 0 });
    expect(none.bytes).toBe('117 MB read');
    expect(none.left).toBeNull();
  });
  it('shows no byte figures outside the reading phases, and no file count while listing', () => {
    expect(progressFigures({ ...base, phase: 'listing', filesTotal: 0, filesDone: 0 })).toEqual({ files: null, bytes: null, rate: null, left: null });
    expect(progressFigures({ ...base, phase: 'indexing', filesDone: 100 })).toEqual({ files: '100 of 100 files', bytes: null, rate: null, left: null });
  });
  it('counts the saved files the quick check has asked', () => {
    expect(progressFigures({ ...base, phase: 'checking', filesDone: 32_000, filesTotal: 100_000 }).files).toBe('32,000 of 100,000 files');
  });
  it('names every phase for what it does', () => {
    expect(PHASE_LABEL).toEqual({
      listing: 'Listing files',
      checking: 'Checking which saved files changed (size and modification time)',
      reading: 'Reading and fingerprinting files',
      fingerprinting: 'Fingerprinting the last files',
      indexing: 'Searching for near-duplicate candidates',
      grouping: 'Verifying pairs and grouping',
      saving: 'Saving to the corpus in this browser',
    });
  });
});

describe('checkingHint', () => {
  const checking: ScanProgress = { ...base, phase: 'checking', filesDone: 100, filesTotal: 20_000, checkingOneByOne: true };
  it('tells a person checking a large chosen folder file by file that a drop is checked faster, where drops give handles', () => {
    expect(checkingHint(checking, true)).toMatch(/drag the folder onto this page/);
  });
  it('says nothing for a drop, a small folder, another phase, or a browser whose drops give no handles', () => {
    expect(checkingHint({ ...checking, checkingOneByOne: false }, true)).toBeNull();
    expect(checkingHint({ ...checking, filesTotal: 300 }, true)).toBeNull();
    expect(checkingHint({ ...checking, phase: 'reading' }, true)).toBeNull();
    expect(checkingHint(checking, false)).toBeNull();
  });
});
