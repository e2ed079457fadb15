/**
 * Opening a `simsift scan` result in the page (core/export/scan-bundle.ts) beside the folder it was made
 * from: the folder is listed and matched first, the person is asked before the saved corpus is
 * replaced, the bundle becomes the saved corpus in one transaction (with its verified pairs, so the
 * restore reads no file), and the folder is then synced like a folder chosen again: files whose size
 * and modification time equal the bundle's are not read, the others are read again and said.
 */
import { matchFolder, pageRootOf, type ScanBundle } from '../core/export/scan-bundle.ts';
import { replaceCorpus } from '../storage/corpus-replace.ts';
import { getCorpusSummary, type NewDocument } from '../storage/corpus-repository.ts';
import { withWriterLock } from '../storage/tab-coordination.ts';
import { collectSource, type ScanSource } from '../scan/scan-source.ts';
import { noContents, type ScanDocs } from '../scan/scan-result.ts';
import { storedDocumentOf } from './stored-documents.ts';
import { runRestore } from './corpus-loading.ts';
import type { CorpusContext } from './corpus-context.ts';
import type { StorageIds } from '../core/ids.ts';

/** How opening ended: opened (the folder's sync runs), the person kept the saved corpus, or refused with why. */
export type OpenOutcome = { kind: 'opened' } | { kind: 'kept' } | { kind: 'refused'; message: string };

const count = (n: number, one: string) => `${n.toLocaleString('en')} ${one}${n === 1 ? '' : 's'}`;

/** The bundle's documents as the saved corpus stores them (ids = positions, paths under `prefix`). */
function documentsOf(bundle: ScanBundle, prefix: string): NewDocument[] {
  const d = bundle.documents;
  const docs: ScanDocs = { ...d, paths: d.paths.map((path) => prefix + path), files: new Array<Blob>(d.count).fill(noContents()) };
  // The scan's own mapping of a document to a stored one (status, skip reason and message, copies).
  return Array.from({ length: d.count }, (_, p) => storedDocumentOf(docs, p, p)!);
}

/**
 * Opens `bundle` beside the folder of `source` (a chosen folder: its handle or its listing). Refused,
 * with nothing stored changed, when a scan runs or the folder holds none of the bundle's files; asks
 * before replacing a saved corpus; then stores the bundle, restores it and syncs the folder.
 */
export async function openBundle(c: CorpusContext, bundle: ScanBundle, source: ScanSource): Promise<OpenOutcome> {
  await c.restoring;
  if (c.scanStore.getSnapshot().state === 'scanning') return { kind: 'refused', message: 'A scan is running: wait for it to end (or cancel it), then open the CLI result again.' };
  const signal = new AbortController().signal;
  const { collected } = await collectSource(c.workers, source, signal);
  const match = matchFolder(bundle, collected.paths);
  const n = bundle.documents.count;
  if (match.matched === 0) {
    const example = bundle.documents.paths[0];
    return {
      kind: 'refused',
      message:
        `The folder "${match.chosen || 'chosen'}" does not hold this result's files: none of its ${count(n, 'path')}${example ? ` (such as "${example}")` : ''} is in it. ` +
        `Choose the folder the CLI scanned, "${bundle.name}" (${bundle.root} where it ran). Nothing was changed.`,
    };
  }
  const saved = (await getCorpusSummary()).documentCount;
  if (saved > 0) {
    const ok = await c.ask(
      {
        message:
          `Opening this CLI result replaces the saved corpus (${count(saved, 'document')}) with the ${count(n, 'document')} of "${bundle.name}". ` +
          'The saved documents and pairs leave this browser; your keep rules and marks stay, and no file on disk is touched.',
        confirm: 'Replace the saved corpus',
        cancel: 'Keep the saved corpus',
      },
      signal,
    );
    if (!ok) return { kind: 'kept' };
  }
  const d = bundle.documents;
  // The old corpus's folders go with it, as after Clear corpus; this folder's root is the CLI's (the plan records it).
  const root = pageRootOf(bundle, match);
  const folder = (match.prefix || d.paths[0] || '').split('/')[0]!;
  await withWriterLock(
    () =>
      replaceCorpus({
        documents: documentsOf(bundle, match.prefix),
        // A bundle carries no passages: contained documents off, not every file read again to sample them (Settings turns them on).
        pairs: { k: bundle.k, threshold: bundle.threshold, grouping: bundle.grouping, ...bundle.pairs, pinned: new Uint32Array() as StorageIds, containment: 0 },
        settings: { fingerprint: bundle.settings, k: bundle.k, kAuto: bundle.kAuto, keepContents: c.snapshot.keepContents, rule: bundle.rule },
        exclusions: bundle.exclusions,
        folderRoots: root === null || folder === '' ? {} : { [folder]: root },
      }),
    { wait: true },
  );
  c.leftPaths.clear();
  c.hold({ type: 'emptied' });
  c.notify('cleared');
  // k as the CLI chose it: given with --k, it stays when the folder's sync runs.
  c.scanStore.update({ k: bundle.k, kAuto: bundle.kAuto });
  await runRestore(c);
  if (c.snapshot.status !== 'ready') return { kind: 'refused', message: c.snapshot.error?.message ?? 'The CLI result could not be stored.' };
  const missing = n - match.matched;
  c.scanNotice =
    `Opened the CLI result of ${bundle.root} (${count(d.count, 'document')}, scanned ${new Date(bundle.scannedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC); ` +
    `checking "${match.chosen}" for files changed since${missing > 0 ? ` (${count(missing, 'file')} of the result not found in it)` : ''}.`;
  c.update({ notice: c.scanNotice });
  const sync: ScanSource = source.kind === 'file-list' ? { ...source, sync: true } : source;
  void c.session?.start(sync);
  return { kind: 'opened' };
}
