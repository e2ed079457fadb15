/**
 * The person's marks, "not a duplicate" list and keep-panel exclusions, saved so they survive a reload:
 * two records in the settings store ('keep-marks', 'keep-exclusions') beside the keep rules, by path
 * (core/keep/keep-marks.ts), checked when read back (a damaged record reads as none), so no schema
 * version change.
 */
import { NO_EXCLUSIONS, type Exclusions } from '../core/documents/exclusions.ts';
import { asExclusions, asSavedMarks, type SavedMarks } from '../core/keep/keep-marks.ts';
import { readTransaction, writeTransaction } from './database.ts';
import type { SettingsRecord } from './schema.ts';

type Key = 'keep-marks' | 'keep-exclusions';

// As keep-settings.ts: the settings store's values are typed as the scan settings record; these
// records go through a cast here only.
async function getRecord(key: Key): Promise<unknown> {
  const record = (await readTransaction(['settings'], (tx) => tx.objectStore('settings').get(key))) as unknown as { value?: unknown } | undefined;
  return record?.value;
}

/** The settings-store record holding `value` under `key`. */
function keepRecord(key: Key, value: unknown): SettingsRecord {
  return { key, value, updatedAt: Date.now() } as unknown as SettingsRecord;
}

async function putRecord(key: Key, value: unknown): Promise<void> {
  await writeTransaction(['settings'], async (tx) => {
    await tx.objectStore('settings').put(keepRecord(key, value));
  });
}

/** The record `putKeepExclusions` writes, for a write that stores it with others in one transaction. */
export const keepExclusionsRecord = (exclusions: Exclusions): SettingsRecord => keepRecord('keep-exclusions', exclusions);

/** The saved marks and "not a duplicate" lists (empty when none were saved). */
export async function getSavedMarks(): Promise<SavedMarks> {
  return asSavedMarks(await getRecord('keep-marks')) ?? { marks: [], ignored: [], separated: [] };
}

/** Saves the marks and ignore list. */
export async function putSavedMarks(saved: SavedMarks): Promise<void> {
  await putRecord('keep-marks', saved);
}

/** The saved keep-panel exclusions (none when none were saved). */
export async function getKeepExclusions(): Promise<Exclusions> {
  return asExclusions(await getRecord('keep-exclusions')) ?? NO_EXCLUSIONS;
}

/** Saves the keep-panel exclusions. */
export async function putKeepExclusions(exclusions: Exclusions): Promise<void> {
  await putRecord('keep-exclusions', exclusions);
}
