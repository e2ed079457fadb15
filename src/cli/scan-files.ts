/**
 * The folder's files for `simsift scan`: walked, stated by the threads, left out by a rule or a
 * permission, and split into the files to read now and those the cache's last scan stands for.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { join } from 'node:path';
import { skipMessage } from '../core/documents/document-status.ts';
import type { SavedCorpusPart } from '../corpus/merge-corpus.ts';
import { inPathOrder, type CollectedFiles } from '../scan/collect-files.ts';
import type { SkippedFile } from '../scan/scan-result.ts';
import { quickCheck, restoreCache, type CacheUse } from './cached-scan.ts';
import { errorCode, UsageError } from './cli-common.ts';
import { diskFile } from './disk-file.ts';
import type { NodeScanWorkers } from './node-scan-workers.ts';
import type { ScanArgs } from './scan-options.ts';
import { statListing, type ListedIdentities } from './stat-listing.ts';
import { fsPath } from './terminal-names.ts';
import { walkFiles } from './walk-files.ts';

/** What `chooseFiles` starts from. */
export interface FolderInput {
  args: Pick<ScanArgs, 'dir' | 'exclusions' | 'cache' | 'reread'>;
  /** The threads that take the stats (and restore the cache). */
  workers: NodeScanWorkers;
  /** The cache being read while the folder is walked (openCache); null without --cache. */
  cacheRead: Promise<CacheUse | null>;
}

/** The folder as the scan takes it. */
export interface FolderFiles {
  /** The files to read now, as the app holds them (Blobs on disk), in path order. */
  collected: CollectedFiles;
  /** The folder's documents, in listing order: those the cache stands for and those read now. */
  scanned: string[];
  /** The listing after the exclusions, with each file's stat; `unreadable[i]` is 1 for a file this process may not read. */
  kept: string[];
  identity: ListedIdentities;
  unreadable: Uint8Array;
  /** Skipped before the scan (while walking, stating or checking permission). */
  listed: SkippedFile[];
  /** Hidden files and folders passed over. */
  hidden: number;
  /** Files left out by a rule: path and rule. */
  excluded: Array<[string, string]>;
  /** The cache as read; null without --cache. */
  cacheUse: CacheUse | null;
  /** With a usable cache: its last scan restored, and which files it spares (cached-scan.ts quickCheck). */
  fromCache: { before: SavedCorpusPart; check: ReturnType<typeof quickCheck> } | null;
  /** A kept file (by its listing position) as a Blob on disk. */
  fileAt: (i: number) => File;
}

/** Why this process may not read `path` (an error code), or null when it may. */
function accessCode(path: string | Buffer): string | null {
  try {
    accessSync(path, constants.R_OK);
    return null;
  } catch (error) {
    return errorCode(error);
  }
}

/**
 * Whether this scan reads every file (no cache to spare any). A scan that may not, a cached rescan,
 * starts the index thread after the stats: until then it only compiles its modules, on the cores the
 * walk, the cache's restore and the ingest threads' stats need, and it has nothing to do before the
 * changed files are read.
 */
export function readsEveryFile(args: Pick<ScanArgs, 'cache' | 'reread'>): boolean {
  return args.cache === undefined || args.reread || !existsSync(args.cache);
}

/**
 * Walks DIR, has the threads stat the listing (the cache restored meanwhile), and chooses the files to
 * read: all of them, or with a usable cache only those it cannot stand for; an unreadable one is set apart.
 */
export async function chooseFiles({ args, workers, cacheRead }: FolderInput): Promise<FolderFiles> {
  const listed: SkippedFile[] = [];
  let hidden = 0;
  let paths: string[];
  try {
    paths = await walkFiles(
      args.dir,
      (path, message) => listed.push({ docId: -1, path, size: 0, reason: 'unreadable', message }),
      () => hidden++,
      (path, kind) => listed.push({ docId: -1, path, size: 0, reason: 'not-regular', message: skipMessage('not-regular', kind) }),
    );
  } catch (error) {
    throw new UsageError(`cannot read ${JSON.stringify(args.dir)} (${errorCode(error)})`);
  }
  const excluded: Array<[string, string]> = [];
  // The stats go to the threads first: the restore's work on this thread would hold back the walk and the stats.
  // A scan that reads every file (no cache to spare any) asks the threads, beside each stat, which it may read.
  const readsAll = readsEveryFile(args);
  const stating = statListing(workers, args.dir, args.exclusions, paths, listed, excluded, readsAll);
  const restoring = cacheRead.then((use) => (use?.cache && !args.reread ? restoreCache(workers, new AbortController().signal, use.cache) : null));
  restoring.catch(() => {});
  const { kept, identity, denied } = await stating;
  // A cached rescan starts the index thread only now (see readsEveryFile); a no-op when it started with the others.
  workers.index.warm();
  const cacheUse = await cacheRead;
  // With a usable cache, the files it stands for are not read (cached-scan.ts); the others are checked
  // for permission here (a read would only say NotReadableError).
  const cached = cacheUse?.cache && !args.reread ? quickCheck(cacheUse.cache, kept, identity) : null;
  // Listing positions of the files to read (the others the cache stands for); an unreadable one is set apart.
  const unreadable = new Uint8Array(kept.length);
  const toRead = (cached ? cached.read : Array.from(kept.keys())).filter((i) => {
    const code = denied ? (denied.get(i) ?? null) : accessCode(fsPath(join(args.dir, kept[i])));
    if (code === null) return true;
    listed.push({ docId: -1, path: kept[i], size: 0, reason: 'unreadable', message: skipMessage('unreadable', code) });
    unreadable[i] = 1;
    return false;
  });
  // The folder's documents: those the cache stands for and those read now.
  const scanned = kept.filter((_, i) => unreadable[i] === 0);
  // Files as the app holds them: Blobs backed by the files on disk, opened when the scan reads them.
  // Listed paths are normalized relative paths: DIR's prefix joined by hand (as path.join would, 100,000 times).
  const prefix = join(args.dir, '_').slice(0, -1);
  const fileAt = (i: number) => diskFile(prefix + kept[i], { size: identity.size[i], mtimeMs: identity.mtimeMs[i] });
  const collected = inPathOrder({ files: toRead.map(fileAt), paths: toRead.map((i) => kept[i]), hidden: [] });
  // restoring is non-null exactly when cached is (the same condition on the same cache).
  const before = cached ? await restoring : null;
  const fromCache = before && cached ? { before, check: cached } : null;
  return { collected, scanned, kept, identity, unreadable, listed, hidden, excluded, cacheUse, fromCache, fileAt };
}
