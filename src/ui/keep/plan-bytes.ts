/**
 * The hash of each group member's bytes for the app's plan, read from the files the scan was given, so
 * that `simsift apply` (and the app's own move) can refuse a file changed after the plan, even by one byte.
 */
import { bytesHash } from '../../core/export/plan.ts';

/** `bytesHash` of every document in `members`, by document; a file that cannot be read now gets none. */
export async function hashMemberBytes(files: readonly Blob[], members: Int32Array): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const d of members) {
    if (out.has(d)) continue;
    try {
      out.set(d, bytesHash(new Uint8Array(await files[d]!.arrayBuffer())));
    } catch {
      // Gone or unreadable since the scan: the plan records no hash, and nothing will move it.
    }
  }
  return out;
}
