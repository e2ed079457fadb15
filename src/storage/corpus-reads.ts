/** Reads of the saved corpus's documents and kept contents, each in one readonly transaction. */
import { readTransaction } from './database.ts';
import { columnsFromChunk, documentAt, idsOf, DOC_FLAG_HAS_CONTENT_HASH } from './corpus-columns.ts';
import type { Columns, StoredDocument } from './corpus-columns.ts';
import { indexOfSorted, lastKeyAtMost } from './key-codec.ts';
import type { ContentBatchRecord } from './schema.ts';
import { StorageError } from './storage-error.ts';
import { findContent } from './content-batches.ts';

/**
 * The given documents (undefined where an id is not stored), in the given order. Reads only the
 * chunks holding them (each up to CHUNK_CAPACITY documents; fine for a detail or pair view).
 */
export async function getDocuments(ids: readonly number[]): Promise<(StoredDocument | undefined)[]> {
  return readTransaction(['corpus-chunks'], async (tx) => {
    const chunks = tx.objectStore('corpus-chunks');
    const keys = await chunks.getAllKeys();
    const byChunk = new Map<number, number[]>();
    for (const id of ids) {
      const key = lastKeyAtMost(keys, id);
      if (key === undefined) continue;
      const list = byChunk.get(key) ?? [];
      byChunk.set(key, list);
      list.push(id);
    }
    const records = await Promise.all([...byChunk.keys()].map((key) => chunks.get(key)));
    const found = new Map<number, StoredDocument>();
    for (const record of records) {
      if (!record) continue;
      const cols = columnsFromChunk(record);
      const chunkIds = idsOf(cols);
      for (const id of byChunk.get(record.chunk)!) {
        const i = indexOfSorted(chunkIds, id);
        if (i >= 0) found.set(id, documentAt(cols, i));
      }
    }
    return ids.map((id) => found.get(id));
  });
}

/** Documents in id order, `limit` at a time, starting after `afterId` (for detail lists). */
export async function listDocuments(options: { afterId?: number; limit?: number } = {}): Promise<StoredDocument[]> {
  const limit = options.limit ?? Infinity;
  return readTransaction(['corpus-chunks'], async (tx) => {
    const out: StoredDocument[] = [];
    const store = tx.objectStore('corpus-chunks');
    const start =
      options.afterId === undefined ? undefined : lastKeyAtMost(await store.getAllKeys(), options.afterId);
    let cursor = await store.openCursor(start === undefined ? null : IDBKeyRange.lowerBound(start));
    while (cursor && out.length < limit) {
      const cols = columnsFromChunk(cursor.value);
      const ids = idsOf(cols);
      for (let i = 0; i < cols.count && out.length < limit; i++) {
        if (options.afterId === undefined || ids[i]! > options.afterId) out.push(documentAt(cols, i));
      }
      cursor = await cursor.continue();
    }
    return out;
  });
}

/**
 * Stored documents with this content hash (exact duplicates). Scans the chunks' hash columns; when
 * the corpus is loaded, LoadedCorpus.hashHi/hashLo answer without reading storage.
 */
export async function findDocumentsByContentHash(contentHash: string): Promise<StoredDocument[]> {
  if (!/^[0-9a-f]{16}$/.test(contentHash)) throw new StorageError('invalid-input', 'content hash');
  const wantHi = parseInt(contentHash.slice(0, 8), 16);
  const wantLo = parseInt(contentHash.slice(8), 16);
  return scanChunks((cols, out: StoredDocument[]) => {
    const hashes = new DataView(cols.bin.contentHashes.buffer, cols.bin.contentHashes.byteOffset);
    for (let i = 0; i < cols.count; i++) {
      if (
        cols.bin.flags[i]! & DOC_FLAG_HAS_CONTENT_HASH &&
        hashes.getUint32(i * 8, false) === wantHi &&
        hashes.getUint32(i * 8 + 4, false) === wantLo
      ) {
        out.push(documentAt(cols, i));
      }
    }
  });
}

/** Which of these paths are already stored (a resumed scan skips them). Scans the chunks' paths. */
export async function findStoredPaths(paths: readonly string[]): Promise<Set<string>> {
  const wanted = new Set(paths);
  const found = await scanChunks((cols, out: string[]) => {
    for (const path of cols.paths) if (wanted.has(path)) out.push(path);
  });
  return new Set(found);
}

/** A stored file's contents, or null when not kept (the pair view then asks for the file again). */
export async function getContent(id: number): Promise<Blob | null> {
  return readTransaction(['content-batches'], (tx) => findContent(tx, id));
}

/** Every record of kept contents, in key order (see content-batches.ts). */
export async function getAllContentBatches(): Promise<ContentBatchRecord[]> {
  return readTransaction(['content-batches'], (tx) => tx.objectStore('content-batches').getAll());
}

// ---------------------------------------------------------------------------------------------------

/** Visits every chunk's columns in id order in one readonly transaction, collecting into `out`. */
async function scanChunks<T>(visit: (cols: Columns, out: T[]) => void): Promise<T[]> {
  return readTransaction(['corpus-chunks'], async (tx) => {
    const out: T[] = [];
    let cursor = await tx.objectStore('corpus-chunks').openCursor();
    while (cursor) {
      visit(columnsFromChunk(cursor.value), out);
      cursor = await cursor.continue();
    }
    return out;
  });
}
