/**
 * Replacing the whole saved corpus by one made elsewhere (a `simsift scan` bundle opened in the page):
 * documents, verified pairs, settings, exclusions and the folders' handles and roots in one transaction, so a failure (a full disk, a
 * closed tab) leaves the corpus that was saved before, whole.
 */
import { RequestGroup, writeTransaction } from './database.ts';
import { columnsFromDocuments, type NewDocument } from './corpus-columns.ts';
import { checkCorpusMeta, chunksOf, summaryOf, type CorpusSummary } from './corpus-repository.ts';
import { verifiedPairsRecord, type VerifiedPairs } from './verified-pairs.ts';
import { settingsRecord, type CorpusSettings } from './settings-repository.ts';
import { keepExclusionsRecord } from './keep-marks.ts';
import { forgetAllFolderHandlesInTransaction } from './folder-handles.ts';
import { folderRootsRecord } from './folder-roots.ts';
import type { Exclusions } from '../core/documents/exclusions.ts';
import type { CorpusMetaRecord } from './schema.ts';

/** A corpus to store in place of the saved one. Document ids are 0..n-1 in path order; the pairs use them. */
export interface ReplacementCorpus {
  documents: readonly NewDocument[];
  pairs: VerifiedPairs;
  settings: CorpusSettings;
  exclusions: Exclusions;
  /** The CLI roots of the folders it was made from (the old corpus's folders' handles and roots go). */
  folderRoots: Readonly<Record<string, string>>;
}

/**
 * Stores `next` in place of the saved corpus (contents, chunks, tables, scan sessions cleared; the
 * keep rules and marks, saved by path, stay), with its pairs valid at the new revision.
 */
export async function replaceCorpus(next: ReplacementCorpus): Promise<CorpusSummary> {
  // Computed first: the transaction below only reads the old revision and writes.
  const columns = columnsFromDocuments(next.documents);
  const chunks = chunksOf(columns);
  const settings = settingsRecord(next.settings);
  const exclusions = keepExclusionsRecord(next.exclusions);
  const roots = folderRootsRecord(next.folderRoots);
  return writeTransaction(['content-batches', 'corpus-chunks', 'shards', 'meta', 'scan-sessions', 'settings'], async (tx) => {
    const meta = tx.objectStore('meta');
    const old = await meta.get('corpus');
    const n = next.documents.length;
    const corpus: CorpusMetaRecord = { key: 'corpus', nextId: n, documentCount: n, revision: (old ? checkCorpusMeta(old).revision : 0) + 1 };
    const writes = new RequestGroup();
    for (const store of ['content-batches', 'corpus-chunks', 'shards', 'scan-sessions'] as const) writes.add(tx.objectStore(store).clear());
    writes.add(meta.delete('tables'));
    for (const chunk of chunks) writes.add(tx.objectStore('corpus-chunks').put(chunk));
    writes.add(meta.put(corpus));
    writes.add(meta.put(verifiedPairsRecord(corpus.revision, next.pairs)));
    writes.add(tx.objectStore('settings').put(settings));
    writes.add(tx.objectStore('settings').put(exclusions));
    writes.add(forgetAllFolderHandlesInTransaction(tx));
    writes.add(tx.objectStore('settings').put(roots));
    await writes.done();
    return summaryOf(corpus);
  });
}
