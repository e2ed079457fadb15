/**
 * The hash of each group member's bytes for the app's plan, read as the views read a document (its File,
 * its stored copy, or its file opened again through the folder's handle), so that `simsift apply` and the
 * app's own move can refuse a file changed after the plan, even by one byte.
 */
import { bytesHash } from '../../core/export/plan.ts';
import { docBlob, docSourceKind, type ScanDocs } from '../../scan/scan-result.ts';

/**
 * `bytesHash` of every document in `members`, by document; a file that cannot be read now gets none. A
 * document whose bytes were not kept (a reload without kept contents) is read through `reopen` (the
 * folder the move acts on) when given, else it gets none: the move then checks its text against the
 * scan's content hash, which is what ties it to the scan.
 */
export async function hashMemberBytes(docs: ScanDocs, members: Int32Array, reopen?: (path: string) => Promise<Blob>): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const d of members) {
    if (out.has(d)) continue;
    try {
      const blob = reopen && docSourceKind(docs, d) === 'none' ? await reopen(docs.paths[d]!) : await docBlob(docs, d);
      const bytes = new Uint8Array(await blob.arrayBuffer());
      if (bytes.length === docs.sizes[d]) out.set(d, bytesHash(bytes));
    } catch {
      // Gone or unreadable since the scan: the plan records no hash, and nothing will move it.
    }
  }
  return out;
}
