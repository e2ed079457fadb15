/**
 * The content hash the scan gives a file's bytes, for the checks made before a file is moved (`simsift
 * apply`, the app's "Move marked to quarantine"): the ingest worker API itself (decode, HTML rule,
 * normalization, XXH64), called in this thread, so the check cannot disagree with the scan.
 */
import { DEFAULT_SETTINGS } from '../core/simhash/settings.ts';
import { ingestApi } from './ingest-api.ts';

/** The 16-hex-digit content hash of `bytes` (named `name`), or null when the scan would give none (binary, empty, too large). */
export async function contentHashOf(name: string, bytes: Uint8Array): Promise<string | null> {
  const r = await ingestApi.ingestBatch([{ name, bytes }], DEFAULT_SETTINGS);
  if (r.hashHi[0] === 0 && r.hashLo[0] === 0) return null;
  return r.hashHi[0]!.toString(16).padStart(8, '0') + r.hashLo[0]!.toString(16).padStart(8, '0');
}
