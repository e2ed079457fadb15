/** A fingerprints Parquet file for the command tests: rows `doc0.txt`, `doc1.txt`, ... with the fingerprints given. */
import { fingerprintsParquet } from '../../../src/core/export/fingerprints-parquet.ts';
import { DEFAULT_SETTINGS } from '../../../src/core/simhash/settings.ts';

/** The Parquet export of one `ok` row per fingerprint (hi[i], lo[i]), word count `words`, as `simsift fingerprint --format parquet` writes it. */
export function fingerprintFile(hi: Uint32Array, lo: Uint32Array, words = 0): Uint8Array {
  const n = hi.length;
  return fingerprintsParquet(
    {
      paths: Array.from({ length: n }, (_, i) => `doc${i}.txt`),
      status: Array.from({ length: n }, () => 'ok' as const),
      hi,
      lo,
      hashHi: new Uint32Array(n),
      hashLo: new Uint32Array(n),
      words: new Uint32Array(n).fill(words),
    },
    { settings: DEFAULT_SETTINGS, version: 'test' },
  );
}

/** `n` rows of one fingerprint: n(n-1)/2 pairs at k = 0. */
export const sameFingerprints = (n: number) => fingerprintFile(new Uint32Array(n).fill(7), new Uint32Array(n).fill(9));
