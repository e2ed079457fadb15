import { describe, expect, it } from 'vitest';
import { getKeepExclusions, getSavedMarks, putKeepExclusions, putSavedMarks } from '../../../src/storage/keep-marks.ts';
import { getKeepRules } from '../../../src/storage/keep-settings.ts';
import { DEFAULT_KEEP_RULES } from '../../../src/core/keep/keep-rules.ts';
import { NO_EXCLUSIONS } from '../../../src/core/documents/exclusions.ts';
import { useFreshDatabase } from './storage-test-db.ts';

useFreshDatabase();

describe('saved marks, ignore list and exclusions', () => {
  it('empty until saved, then read back; the keep rules untouched', async () => {
    expect(await getSavedMarks()).toEqual({ marks: [], ignored: [], separated: [] });
    expect(await getKeepExclusions()).toEqual(NO_EXCLUSIONS);
    const saved = { marks: [['docs/a.txt', true] as [string, boolean], ['docs/b.txt', false] as [string, boolean]], ignored: ['docs/c.txt'], separated: [['docs/a.txt', 'docs/d.txt'] as [string, string]] };
    await putSavedMarks(saved);
    const exclusions = { patterns: ['drafts/**'], extensions: ['log'], minSize: 10, maxSize: null };
    await putKeepExclusions(exclusions);
    expect(await getSavedMarks()).toEqual(saved);
    expect(await getKeepExclusions()).toEqual(exclusions);
    expect(await getKeepRules()).toEqual(DEFAULT_KEEP_RULES);
  });
});
