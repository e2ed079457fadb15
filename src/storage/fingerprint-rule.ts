/**
 * A saved corpus whose fingerprints were made by another fingerprint rule (core/simhash/fingerprint-rule.ts)
 * than this version's: its settings record carries the rule, such a corpus is rebuilt by the next scan
 * (settingsChange says 'fingerprints'), and until then it is shown as saved but never checked against
 * or merged with fingerprints of the current rule.
 */
import { FINGERPRINT_RULE, UNSTAMPED_RULE } from '../core/simhash/fingerprint-rule.ts';

/** The rule a stored settings record's fingerprints were made with (a record written before the stamp has none). */
export function storedRule(record: { rule?: number }): number {
  return record.rule ?? UNSTAMPED_RULE;
}

/** The rule of settings in memory: as read from storage, or this version's when they say none (settings about to be written). */
export function ruleOf(settings: { rule?: number }): number {
  return settings.rule ?? FINGERPRINT_RULE;
}

/** True when the saved corpus's fingerprints were made by another rule than this version's. */
export function isStaleRule(settings: { rule?: number } | null): boolean {
  return settings !== null && ruleOf(settings) !== FINGERPRINT_RULE;
}

/** What the person reads about a saved corpus of an older rule. */
export const STALE_RULE_NOTICE =
  'The saved corpus was fingerprinted by an older version of SimSift, which split words at "_". Its groups are shown as saved; ' +
  'scan the folder again to bring it up to date (the scan rebuilds the saved corpus). Until then files are not checked against it.';
