/**
 * The stat of every file a scan listed, taken by the ingest threads (a share each) while the main thread
 * waits: files excluded by the rules or over the size limit are set apart, the rest are kept with their
 * identity (size, times, inode: the keep rules' newest/oldest and the cache's quick check).
 */
import { resolve, sep } from 'node:path';
import { MAX_DOCUMENT_BYTES, skipMessage, tooLargeMessage } from '../core/documents/document-status.ts';
import { exclusionMatcher, type Exclusions } from '../core/documents/exclusions.ts';
import type { SkippedFile } from '../scan/scan-result.ts';
import type { NodeScanWorkers } from './node-scan-workers.ts';
import type { FileIdentity } from './scan-cache.ts';

/** The listed files a scan goes on with (`kept`, in listing order) and each one's identity. */
export interface StatListing {
  kept: string[];
  identity: Map<string, FileIdentity>;
}

/**
 * Stats `paths` (relative to `dir`) in the ingest threads, in listing order; an unreadable file goes to
 * `listed` (skipped), as does one over the document limit (never opened: a sparse 4 GiB file costs
 * nothing); one the exclusions leave out goes to `excluded` with its rule.
 */
export async function statListing(
  workers: NodeScanWorkers,
  dir: string,
  exclusions: Exclusions,
  paths: readonly string[],
  listed: SkippedFile[],
  excluded: Array<[string, string]>,
): Promise<StatListing> {
  // Listed paths are normalized relative paths: joined by hand (path.join normalizes again, 100,000 times).
  const base = resolve(dir) + sep;
  const share = Math.ceil(paths.length / workers.ingest.size) || 1;
  const parts: string[][] = [];
  for (let at = 0; at < paths.length; at += share) parts.push(paths.slice(at, at + share));
  const stats = await Promise.all(parts.map((part) => workers.ingest.run(undefined, (api) => api.statPaths(base, part))));
  const kept: string[] = [];
  const identity = new Map<string, FileIdentity>();
  const excludedBy = exclusionMatcher(exclusions);
  stats.forEach((s, j) => {
    const part = parts[j];
    let f = 0;
    for (let i = 0; i < part.length; i++) {
      const path = part[i];
      if (f < s.failed.length && s.failed[f][0] === i) {
        listed.push({ docId: -1, path, size: 0, reason: 'unreadable', message: skipMessage('unreadable', s.failed[f++][1]) });
        continue;
      }
      const size = s.size[i];
      const rule = excludedBy(path, size);
      if (rule !== null) excluded.push([path, rule]);
      else if (size > MAX_DOCUMENT_BYTES) listed.push({ docId: -1, path, size, reason: 'too-large', message: tooLargeMessage(size) });
      else {
        identity.set(path, { size, mtimeMs: s.mtimeMs[i], ctimeMs: s.ctimeMs[i], ino: s.ino[i] });
        kept.push(path);
      }
    }
  });
  return { kept, identity };
}
