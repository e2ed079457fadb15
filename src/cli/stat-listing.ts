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

/** The listed files a scan goes on with (`kept`, in listing order) and each one's identity (`identity[i]` is `kept[i]`'s). */
export interface StatListing {
  kept: string[];
  identity: ListedIdentities;
  /** With `access`: the kept files (by position in `kept`) this process may not read, with the error code; null when not asked. */
  denied: Map<number, string> | null;
}

/** What `stat` says of each listed file (by position), compared field by field by the cache's quick check (fclones' rule, plus ctime). */
export interface ListedIdentities {
  size: Float64Array;
  mtimeMs: Float64Array;
  ctimeMs: Float64Array;
  ino: Float64Array;
}

/**
 * Stats `paths` (relative to `dir`) in the ingest threads, in listing order; an unreadable file goes to
 * `listed` (skipped), as does one over the document limit (never opened: a sparse 4 GiB file costs
 * nothing); one the exclusions leave out goes to `excluded` with its rule. `access`: the threads also
 * say which kept files may not be read (`denied`), for a scan that reads them all.
 */
export async function statListing(
  workers: NodeScanWorkers,
  dir: string,
  exclusions: Exclusions,
  paths: readonly string[],
  listed: SkippedFile[],
  excluded: Array<[string, string]>,
  access = false,
): Promise<StatListing> {
  // Listed paths are normalized relative paths: joined by hand (path.join normalizes again, 100,000 times).
  const base = resolve(dir) + sep;
  const share = Math.ceil(paths.length / workers.ingest.size) || 1;
  const parts: string[][] = [];
  for (let at = 0; at < paths.length; at += share) parts.push(paths.slice(at, at + share));
  const stats = await Promise.all(parts.map((part) => workers.ingest.run(undefined, (api) => api.statPaths(base, part, access))));
  const kept: string[] = [];
  const n = paths.length;
  const identity: ListedIdentities = { size: new Float64Array(n), mtimeMs: new Float64Array(n), ctimeMs: new Float64Array(n), ino: new Float64Array(n) };
  const excludedBy = exclusionMatcher(exclusions);
  const denied = access ? new Map<number, string>() : null;
  stats.forEach((s, j) => {
    const part = parts[j];
    let f = 0;
    let u = 0;
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
        const k = kept.push(path) - 1;
        while (u < s.denied.length && s.denied[u][0] < i) u++;
        if (u < s.denied.length && s.denied[u][0] === i) denied?.set(k, s.denied[u][1]);
        identity.size[k] = size;
        identity.mtimeMs[k] = s.mtimeMs[i];
        identity.ctimeMs[k] = s.ctimeMs[i];
        identity.ino[k] = s.ino[i];
      }
    }
  });
  const cut = (column: Float64Array) => column.subarray(0, kept.length);
  return { kept, identity: { size: cut(identity.size), mtimeMs: cut(identity.mtimeMs), ctimeMs: cut(identity.ctimeMs), ino: cut(identity.ino) }, denied };
}
