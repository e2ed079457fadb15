/**
 * Once a scan is saved with its contents kept, its documents read their kept copy, as after a reload,
 * and the page lets go of the chosen folder's Files. Chromium releases a page's folder-input Files in
 * its browser process: held to the end, 100,000 of them were released when the page went, and starved
 * the reload that followed for 20-30 s; let go here, they are released while the person reviews.
 */
import { getAllContentBatches } from '../storage/corpus-repository.ts';
import { forEachContent } from '../storage/content-batches.ts';
import { NO_ID, type CorpusPart } from './merge-corpus.ts';

/** A File the page was given (folder input, drop, Choose files); kept copies and stand-ins are nameless Blobs. */
function isGivenFile(file: Blob | undefined): file is File {
  return file instanceof File && file.name !== '';
}

/**
 * Points every document of `part` that is a given File with kept contents at its stored batch's Blob
 * and byte range (`ScanDocs.ranges`). Documents without kept contents keep their File: views read it.
 * Returns how many documents were moved to their kept copy.
 */
export async function readKeptCopies(part: CorpusPart): Promise<number> {
  const docs = part.result.docs;
  const at = new Map<number, number>();
  for (let d = 0; d < docs.count; d++) {
    const id = part.storageIds[d]!;
    if (id !== NO_ID && isGivenFile(docs.files[d])) at.set(id, d);
  }
  if (at.size === 0) return 0;
  const records = await getAllContentBatches();
  let moved = 0;
  for (const record of records) {
    forEachContent(record, (id, start, end) => {
      const d = at.get(id);
      // The stored copy is the bytes that were fingerprinted; a size that differs is not that copy.
      if (d === undefined || end - start !== docs.sizes[d]) return;
      docs.ranges ??= new Float64Array(2 * docs.count).fill(Number.NaN);
      docs.files[d] = record.blob;
      docs.ranges[2 * d] = start;
      docs.ranges[2 * d + 1] = end;
      moved++;
    });
  }
  return moved;
}
