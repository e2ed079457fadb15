/**
 * The saved settings: the fingerprint settings the corpus was made with, k, and whether file contents
 * are kept; and what a change of them requires.
 */
import { RequestGroup, readTransaction, writeTransaction } from './database.ts';
import type { FingerprintSettings, SettingsRecord } from './schema.ts';
import { StorageError } from './storage-error.ts';
import { FINGERPRINT_RULE } from '../core/simhash/fingerprint-rule.ts';
import { ruleOf, storedRule } from './fingerprint-rule.ts';

/** The settings as the app reads and writes them. */
export type CorpusSettings = Omit<SettingsRecord, 'key' | 'updatedAt'>;

/** What changing from one settings value to another requires before the corpus is consistent again. */
export type SettingsChange =
  /** Nothing stored depends on what changed. */
  | 'none'
  /** k changed: the permuted tables must be rebuilt (fingerprints stay). */
  | 'tables'
  /** Features, weights or stop words changed: every document must be fingerprinted again. */
  | 'fingerprints';

/** The saved settings, or null when none were saved yet. Throws StorageError 'corrupt' on a bad record. */
export async function getSettings(): Promise<CorpusSettings | null> {
  const record = await readTransaction(['settings'], (tx) => tx.objectStore('settings').get('current'));
  if (!record) return null;
  checkSettings(record);
  return { fingerprint: record.fingerprint, k: record.k, ...(record.kAuto !== undefined ? { kAuto: record.kAuto } : {}), keepContents: record.keepContents, rule: storedRule(record) };
}

/**
 * Saves the settings, stamped with the fingerprint rule they carry (this version's when they carry none:
 * the caller is writing fingerprints of this version). Turning `keepContents` off deletes the stored contents in the same transaction,
 * so "off" really keeps nothing. Rebuilding after a fingerprint or k change is the caller's job (ask first).
 */
export async function putSettings(settings: CorpusSettings): Promise<void> {
  const record = settingsRecord(settings);
  await writeTransaction(['settings', 'content-batches'], async (tx) => {
    const writes = new RequestGroup();
    writes.add(tx.objectStore('settings').put(record));
    if (!settings.keepContents) writes.add(tx.objectStore('content-batches').clear());
    await writes.done();
  });
}

/** The stored record of `settings` (checked), stamped with their fingerprint rule or this version's. */
export function settingsRecord(settings: CorpusSettings): SettingsRecord {
  const record: SettingsRecord = { key: 'current', ...settings, rule: settings.rule ?? FINGERPRINT_RULE, updatedAt: Date.now() };
  checkSettings(record, 'invalid-input');
  return record;
}

/** What moving from `stored` to `next` requires (see SettingsChange). */
export function settingsChange(stored: CorpusSettings | null, next: CorpusSettings): SettingsChange {
  if (!stored) return 'none';
  // Fingerprints of another rule are never mixed with this version's: the corpus is fingerprinted again.
  if (ruleOf(stored) !== ruleOf(next)) return 'fingerprints';
  if (!sameFingerprintSettings(stored.fingerprint, next.fingerprint)) return 'fingerprints';
  if (stored.k !== next.k) return 'tables';
  return 'none';
}

function sameFingerprintSettings(a: FingerprintSettings, b: FingerprintSettings): boolean {
  return (
    a.features.kind === b.features.kind &&
    a.features.n === b.features.n &&
    a.weights === b.weights &&
    a.stopWords === b.stopWords
  );
}

function checkSettings(record: SettingsRecord, kind: 'corrupt' | 'invalid-input' = 'corrupt'): void {
  const f = record.fingerprint;
  const ok =
    f !== null &&
    typeof f === 'object' &&
    ['word-shingle', 'word', 'char-ngram'].includes(f.features?.kind) &&
    Number.isInteger(f.features?.n) &&
    f.features.n >= 1 &&
    ['binary', 'tf', 'tfidf'].includes(f.weights) &&
    typeof f.stopWords === 'boolean' &&
    Number.isInteger(record.k) &&
    record.k >= 0 &&
    record.k < 64 &&
    (record.kAuto === undefined || typeof record.kAuto === 'boolean') &&
    typeof record.keepContents === 'boolean' &&
    (record.rule === undefined || Number.isInteger(record.rule));
  if (!ok) throw new StorageError(kind, 'settings record');
}
