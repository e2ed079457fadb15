/**
 * What `simsift scan` says on stderr once the scan is done: the files left out by a rule or skipped
 * (one line each), the cache's line, and the summary's counts of files, pairs, groups and settings.
 */
import { defaultKReason, recallNote } from '../core/quality/defaults.ts';
import { DocStatus, docStatusOfName } from '../core/documents/document-status.ts';
import { CHAIN_FOUND, CHAIN_UNKNOWN } from '../core/groups/components.ts';
import { groupCounts } from '../core/groups/duplicate-relation.ts';
import { containedCounts, type ContainedPairs } from '../core/groups/contained-pairs.ts';
import type { ScanResult, SkippedFile } from '../scan/scan-result.ts';
import type { CacheOutcome, CacheUse } from './cached-scan.ts';
import type { ScanArgs } from './scan-options.ts';
import { escapeName, terminalText } from './terminal-names.ts';
import { describeSettings, write, type CliIo } from './cli-common.ts';

/** `n` and the noun, singular or plural by `n`. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One line per count of the scan's files by what happened to them (`listed`: those skipped before the scan, while walking DIR). */
function describeFiles(result: ScanResult, hidden: number, listed: readonly SkippedFile[]): string {
  const counts = new Map<number, number>();
  for (let d = 0; d < result.docs.count; d++) counts.set(result.docs.status[d], (counts.get(result.docs.status[d]) ?? 0) + 1);
  let bytes = 0;
  for (let d = 0; d < result.docs.count; d++) bytes += result.docs.sizes[d];
  let distinct = 0;
  for (let d = 0; d < result.docs.count; d++) if (result.representative[d] === d && result.docs.status[d] === DocStatus.ok) distinct++;
  for (const skip of listed) {
    const status = skip.reason === 'hidden' ? undefined : docStatusOfName(skip.reason);
    if (status === undefined) continue;
    counts.set(status, (counts.get(status) ?? 0) + 1);
    bytes += skip.size;
  }
  const c = (status: number) => counts.get(status) ?? 0;
  return (
    `${plural(result.docs.count + listed.length, 'file')}, ${(bytes / 1e6).toFixed(1)} MB: ${c(DocStatus.ok)} fingerprinted (${distinct} distinct texts), ` +
    `${c(DocStatus.tooShort)} too short, ${c(DocStatus.binary)} binary, ${c(DocStatus.empty)} empty, ${c(DocStatus.tooLarge)} too large, ` +
    `${c(DocStatus.unreadable)} unreadable, ${hidden} hidden, ${c(DocStatus.notRegular)} not regular files` +
    // Documents whose text could not be extracted, named only when there are some.
    ([['encrypted', DocStatus.encrypted], ['damaged', DocStatus.damaged], ['without text', DocStatus.noText], ['stopped at a safety limit', DocStatus.overLimit]] as const)
      .filter(([, status]) => c(status) > 0)
      .map(([what, status]) => `, ${c(status)} ${what}`)
      .join('')
  );
}

/** Skips named one by one on stderr: a person expected these files to be read (documents included). */
const LISTED_SKIPS: ReadonlySet<string> = new Set(['unreadable', 'too-large', 'not-regular', 'encrypted', 'damaged', 'no-text', 'over-limit']);

/**
 * The groups as the page's summary counts them (core groupCounts): every group, split into those of
 * identical copies only and those with a near-duplicate, and the sets of identical texts inside them.
 */
function describeGroups(result: ScanResult): string {
  const c = groupCounts(result.relation);
  return (
    `${plural(c.groups, 'group')} (${result.grouping}): ${plural(c.exactOnly, 'exact-duplicate group')} (identical copies only), ` +
    `${plural(c.withNear, 'near-duplicate group')} (with a near-duplicate), ${plural(result.exactGroups.count, 'set')} of identical texts among them`
  );
}

/** Components mode: how many components chain, with one example. */
function describeChaining(result: ScanResult): string {
  const chained = result.chained;
  if (!chained) return '';
  let found = 0;
  let unknown = 0;
  let first = -1;
  for (let g = 0; g < chained.length; g++) {
    if (chained[g] === CHAIN_FOUND) {
      found++;
      if (first < 0) first = g;
    } else if (chained[g] === CHAIN_UNKNOWN) unknown++;
  }
  const example = first >= 0 ? `, e.g. group ${first + 1} around ${escapeName(result.docs.paths[result.groups.reference[first]])}` : '';
  return (
    (found === 0 ? '; no component chains' : `; ${plural(found, 'component chains', 'components chain')} (members linked through others although not near-duplicates${example})`) +
    (unknown > 0 ? `, ${unknown} too large to check fully` : '')
  );
}

/** The summary as `describeScan` reads it: the finished scan and what was found around it. */
export interface ScanSummary {
  result: ScanResult;
  /** Hidden files and folders passed over while walking DIR. */
  hidden: number;
  /** Files skipped while walking DIR, before the scan. */
  listed: readonly SkippedFile[];
  args: Pick<ScanArgs, 'k' | 'pairs' | 'containment' | 'settings' | 'out'>;
  /** The folder's documents (those the cache stands for and those read now): the corpus size of the default k. */
  documents: number;
  /** How many pairs `--pairs` gave, or null when the scan searched for them. */
  pairsGiven: number | null;
  /** The cache's line (describeCacheUse), '' without --cache. */
  cacheLine: string;
  /** True when the scan merged into a cache's last scan. */
  merged: boolean;
  threads: number;
  seconds: number;
  /** describePhases's text. */
  phases: string;
}

/** Pairs are not documents: one excerpt held by three wholes is one document in three pairs. */
function describeContained(contained: ContainedPairs | undefined): string {
  const c = contained ? containedCounts(contained) : { documents: 0, containers: 0, pairs: 0 };
  return `${plural(c.pairs, 'contained pair')}: ${plural(c.documents, 'document')} inside ${plural(c.containers, 'other')}`;
}

/** The summary's lines on stderr, each starting `simsift scan: `. */
export function describeScan(s: ScanSummary): string {
  const { result, hidden, listed, args, cacheLine, threads, seconds, phases } = s;
  const v = result.verification;
  return (
    `simsift scan: ${describeFiles(result, hidden, listed)}\n` +
      (args.k === undefined && s.pairsGiven === null ? `simsift scan: ${defaultKReason(s.documents)}\n` : '') +
      cacheLine +
      `simsift scan: ${plural(v.candidates, 'candidate pair')} within k=${result.k} ` +
      (s.pairsGiven !== null ? `(from ${plural(s.pairsGiven, 'pair')} of ${args.pairs}, not searched here) ` : '') +
      (s.merged ? '(searched: the pairs with a file read now; the others as the cache decided them) ' : '') +
      `(${recallNote(result.k, result.similarityThreshold)}), ` +
      `${result.verified.count} verified (Jaccard >= ${result.similarityThreshold}; ${v.joinPairs} from the short-document join, ` +
      `${v.joinOnly} of them not candidates); ${describeGroups(result)}${describeChaining(result)}; ` +
      (args.containment > 0 ? `${describeContained(result.contained)} (containment >= ${args.containment}); ` : 'containment off; ') +
      `${describeSettings(args.settings)}; ${plural(threads, 'thread')}; ${v.sizeRejected} rejected by the size bound, ${v.sketchRejected} by the sketches, ${v.measured} measured, ${v.docsRead} files read again for exact Jaccard; ` +
      `total ${seconds.toFixed(2)} s${args.out !== undefined ? `; wrote ${escapeName(args.out)}` : ''}\n` +
      `simsift scan: ${phases}\n`
  );
}

/** The files left out by a rule (`excluded`, sorted here by path) and the skips a person expected read, one line each on stderr. */
export async function writeLeftOut(io: CliIo, excluded: Array<[string, string]>, skipped: readonly SkippedFile[]): Promise<void> {
  excluded.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [path, rule] of excluded) await write(io.stderr, `excluded ${escapeName(path)}: ${terminalText(rule)}\n`);
  for (const skip of skipped) {
    if (LISTED_SKIPS.has(skip.reason)) await write(io.stderr, `skipped ${escapeName(skip.path)}: ${terminalText(skip.message)}\n`);
  }
}

/** The summary's line about the cache: what it spared, or why it could not be used; `written`: whether FILE was written. */
export function describeCacheUse(file: string, written: boolean, use: CacheUse, outcome: CacheOutcome | null, reread: boolean): string {
  const saved = written ? `wrote ${escapeName(file)}` : `${escapeName(file)} not written (the scan did not finish every file)`;
  if (outcome) {
    const { notRead, unchanged, updated, added, missing } = outcome;
    const read = unchanged + updated + added.length;
    return (
      `simsift scan: cache: ${plural(notRead, 'file')} not read (unchanged since the last scan); ${read} read: ${updated} changed, ` +
      `${added.length} new, ${unchanged} with the same contents; ${missing.paths.length} gone; ${use.cache && use.note ? `${use.note}; ` : ''}${saved}\n`
    );
  }
  const why = reread ? 'every file read (--reread)' : use.problem !== null ? `not used: ${terminalText(use.problem)}; every file read` : 'none yet; every file read';
  return `simsift scan: cache: ${why}; ${saved}\n`;
}
