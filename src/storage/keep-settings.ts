/**
 * The saved keep rules (#22): one record in the settings store under the key 'keep', beside the scan
 * settings ('current'), checked by core's asKeepRules when read back (an old or damaged record gives
 * the defaults), so no schema version change.
 */
import { asKeepRules, DEFAULT_KEEP_RULES, type KeepRules } from '../core/keep/keep-rules.ts';
import { readTransaction, writeTransaction } from './database.ts';
import type { SettingsRecord } from './schema.ts';

/** The record as stored. */
export interface KeepSettingsRecord {
  key: 'keep';
  rules: KeepRules;
  updatedAt: number;
}

// The schema types the settings store's values as SettingsRecord (the 'current' record every other
// reader asks for by key); widening that union would touch the batch write path, so this module alone
// reads and writes the 'keep' record through these two casts.
const asStored = (r: KeepSettingsRecord) => r as unknown as SettingsRecord;

/** The saved keep rules, or the defaults when none were saved (or the record is not valid). */
export async function getKeepRules(): Promise<KeepRules> {
  const record = (await readTransaction(['settings'], (tx) => tx.objectStore('settings').get('keep'))) as unknown as KeepSettingsRecord | undefined;
  return (record && asKeepRules(record.rules)) || DEFAULT_KEEP_RULES;
}

/** Saves the keep rules. */
export async function putKeepRules(rules: KeepRules): Promise<void> {
  await writeTransaction(['settings'], async (tx) => {
    await tx.objectStore('settings').put(asStored({ key: 'keep', rules, updatedAt: Date.now() }));
  });
}
