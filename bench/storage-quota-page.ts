/**
 * Page side of bench/storage-quota-check.ts: fills the real IndexedDB in batches with contents until
 * the (CDP-lowered) quota is hit, then reports what the storage layer threw and what was kept.
 */
import { addBatch, loadCorpus } from '../src/storage/corpus-repository.ts';
import { getDocuments } from '../src/storage/corpus-reads.ts';
import type { NewDocument } from '../src/storage/corpus-repository.ts';
import { closeCorpusDb, deleteCorpusDatabase } from '../src/storage/database.ts';
import { isStorageError } from '../src/storage/storage-error.ts';
import { getStorageUsage } from '../src/storage/storage-quota.ts';

async function fillUntilFull(batchDocs: number, blobBytes: number, maxBatches: number): Promise<Record<string, unknown>> {
  await deleteCorpusDatabase();
  let committed = 0;
  let error: { name: string; kind: string; message: string } | null = null;
  let failedIds: number[] = [];
  for (let b = 0; b < maxBatches && !error; b++) {
    const docs: NewDocument[] = [];
    const parts: Blob[] = [];
    for (let i = 0; i < batchDocs; i++) {
      const id = committed + i;
      docs.push({
        id,
        path: `big/${id}.txt`,
        size: blobBytes,
        lastModified: 0,
        contentHash: null,
        status: 'ok',
        hi: id,
        lo: id * 3,
        words: 1,
        features: 1,
      });
      // Random bytes so no layer can compress them away.
      const bytes = new Uint8Array(blobBytes);
      for (let o = 0; o < blobBytes; o += 65536) crypto.getRandomValues(bytes.subarray(o, Math.min(blobBytes, o + 65536)));
      parts.push(new Blob([bytes]));
    }
    // One record per batch, as a scan keeps contents (see src/storage/content-batches.ts).
    const ids = Uint32Array.from(docs, (d) => d.id);
    const contents = { ids, starts: ids.map((_, i) => i * blobBytes), ends: ids.map((_, i) => (i + 1) * blobBytes), blob: new Blob(parts) };
    try {
      await addBatch({ documents: docs, contents });
      committed += batchDocs;
    } catch (e) {
      error = isStorageError(e)
        ? { name: e.name, kind: e.kind, message: e.message }
        : { name: String((e as Error)?.name), kind: 'not a StorageError', message: String((e as Error)?.message) };
      failedIds = docs.map((d) => d.id);
    }
  }
  const corpus = await loadCorpus();
  const failedStored = (await getDocuments(failedIds)).filter((d) => d !== undefined).length;
  const usage = await getStorageUsage();
  closeCorpusDb();
  return { committed, error, restoredCount: corpus.count, failedBatchRecordsStored: failedStored, usage };
}

(window as unknown as { simsiftQuotaCheck: unknown }).simsiftQuotaCheck = { fillUntilFull };
