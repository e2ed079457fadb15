/**
 * Once a scan is saved with its contents kept, its documents read their kept copy, as after a reload,
 * and the page lets go of the chosen folder's Files. Chromium releases a page's folder-input Files in
 * its browser process: held to the end, they were all released when the page went and starved the
 * reload that followed (README, "Reload"); let go here, they are released while the person reviews.
 */
import { getAllContentBatches } from '../storage/corpus-reads.ts';
import { forEachContent } from '../storage/content-batches.ts';
import type { CorpusPart } from './merge-corpus.ts';
import { NO_ID } from '../core/ids.ts';

/** A File the page was given (folder input, drop, Choose files); kept copies and stand-ins are nameless Blobs. */
function isGivenFile(file: Blob | undefined): file is File {
  return file instanceof File && file.name !== '';
}

/**
 * Points every document of `part` that is a given File at its stored batch's Blob and byte range
 * (`ScanDocs.ranges`), all or none: when one has no kept copy, every File stays (views read them).
 * The files array is changed in place, as every holder of the scan's columns shares it; the scan's
 * listing shares it too, so the caller tells the session to forget that listing (a rescan then reads
 * the result's documents, ranges included). Returns whether the documents moved.
 */
export async function readKeptCopies(part: CorpusPart): Promise<boolean> {
  const docs = part.result.docs;
  const at = new Map<number, number>();
  for (let d = 0; d < docs.count; d++) {
    if (!isGivenFile(docs.files[d])) continue;
    const id = part.storageIds[d]!;
    if (id === NO_ID) return false;
    at.set(id, d);
  }
  if (at.size === 0) return false;
  const records = await getAllContentBatches();
  const copies: Array<[number, Blob, number, number]> = [];
  for (const record of records) {
    forEachContent(record, (id, start, end) => {
      const d = at.get(id);
      // The stored copy is the bytes that were fingerprinted; a size that differs is not that copy.
      if (d !== undefined && end - start === docs.sizes[d]) copies.push([d, record.blob, start, end]);
    });
  }
  if (copies.length !== at.size) return false;
  const ranges = docs.ranges ?? new Float64Array(2 * docs.count).fill(Number.NaN);
  for (const [d, blob, start, end] of copies) {
    // Checked again: a scan that started meanwhile may have replaced the File.
    if (!isGivenFile(docs.files[d])) continue;
    docs.files[d] = blob;
    ranges[2 * d] = start;
    ranges[2 * d + 1] = end;
  }
  docs.ranges = ranges;
  return true;
}
