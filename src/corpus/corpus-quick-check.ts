/**
 * The quick check against the corpus on show: which saved documents stand for unchanged files of a
 * scan (same path, size and modification time), and lending the files not read to those documents.
 */
import { settingsChange } from '../storage/settings-repository.ts';
import { docSourceKind } from '../scan/scan-result.ts';
import type { UnchangedFiles, UnchangedTest } from '../scan/quick-check.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { DocStatus } from '../core/documents/document-status.ts';
import { NO_ID } from '../core/ids.ts';
import { positionsByPath } from './merge-corpus.ts';
import type { Base, CorpusContext } from './corpus-context.ts';

/** Whether the corpus on show can stand for unchanged files of a scan with `settings` (see unchangedTest). */
export function quickCheckApplies(c: CorpusContext, settings: SimHashSettings): boolean {
  const saved = c.savedSettings;
  if (!saved || !c.base || c.base.result.docs.count === 0 || c.snapshot.rereadAll || settings.weights === 'tfidf' || c.snapshot.status !== 'ready') return false;
  // Also for a corpus saved without passages (containment off): their stage samples them (contained-search.ts).
  return settingsChange(saved, { ...saved, fingerprint: settings }) !== 'fingerprints';
}

/**
 * The quick check against the corpus on show: a path saved (and stored) with this size and a known
 * modification time equal to the file's is not read again. Never with other fingerprint settings (the
 * saved fingerprints would not stand for the file), TF-IDF weights (a document's fingerprint depends on
 * the whole corpus), or after "Re-read every file".
 */
export function unchangedTest(c: CorpusContext, settings: SimHashSettings): UnchangedTest | null {
  const base = c.base;
  if (!base || !quickCheckApplies(c, settings)) return null;
  const docs = base.result.docs;
  const at = positionsByPath(docs);
  return {
    saved: (path) => at.has(path),
    unchanged: (path, size, modified) => {
      const q = at.get(path);
      if (q === undefined || base.storageIds[q] === NO_ID) return false;
      const time = docs.modified?.[q] ?? 0;
      const status = docs.status[q];
      // A file saved without a time (0) or never read whole is always read.
      return time > 0 && time === modified && docs.sizes[q] === size && status !== DocStatus.pending && status !== DocStatus.unreadable;
    },
  };
}

/**
 * The files the quick check did not read stand for their saved documents whose contents are not kept:
 * a pair that needs such a document's exact Jaccard reads that one file (it is the saved one: same path,
 * size and time), instead of staying unmeasured.
 */
export function lendUnchangedFiles(base: Base, left: UnchangedFiles): void {
  const docs = base.result.docs;
  const at = positionsByPath(docs);
  left.paths.forEach((path, i) => {
    const q = at.get(path);
    if (q !== undefined && docSourceKind(docs, q) === 'none') docs.files[q] = left.files[i]!;
  });
}
