/**
 * The pairs CSV the index worker builds right after grouping (workers/pairs-csv-ahead.ts, #34: the
 * cached scan's main thread waited for the CSV, asked only once it had taken the grouping's result),
 * and the caller's record of which relation and paths it stands for (scan/pairs-csv-ahead.ts).
 */
import { describe, expect, it } from 'vitest';
import { indexApi } from '../../../src/workers/index-api.ts';
import { pairsCsvBytes } from '../../../src/core/export/pairs-csv-bytes.ts';
import { rememberCsvAhead, takeCsvAhead } from '../../../src/scan/pairs-csv-ahead.ts';

/** Docs 0-3 fingerprinted; candidates 0-1 (J 0.9), 1-2 (0.85), 2-3 (0.2). */
function input() {
  const n = 4;
  return {
    n, threshold: 0.8, grouping: 'reference' as const,
    candidates: { a: Uint32Array.of(0, 1, 2), b: Uint32Array.of(1, 2, 3), distance: Uint8Array.of(3, 5, 11), count: 3 },
    jaccard: Float64Array.of(0.9, 0.85, 0.2),
    words: Uint32Array.of(500, 500, 500, 500), hi: new Uint32Array(n), lo: new Uint32Array(n), hasFingerprint: Uint8Array.of(1, 1, 1, 1),
    smallSets: { docs: new Uint32Array(0), offsets: Uint32Array.of(0), keys: new Uint32Array(0) }, representative: Int32Array.of(0, 1, 2, 3),
  };
}

const text = (chunks: Uint8Array[] | null) => (chunks ? Buffer.concat(chunks).toString('utf8') : null);
const paths = ['a.txt', 'b, with a comma.txt', 'c.txt', 'd.txt'];

describe('the pairs CSV built after grouping', () => {
  it('is the CSV of the grouped relation over the held paths, taken once, whether taken before or after its task ran', async () => {
    indexApi.holdPairsCsvPaths(paths);
    const r = indexApi.groupNearDuplicates({ ...input(), csvAhead: true });
    const expected = text(pairsCsvBytes(r.relation, paths));
    expect(expected).toMatch(/b, with a comma/);
    // Taken at once: built on demand.
    expect(text(indexApi.takePairsCsv())).toBe(expected);
    expect(indexApi.takePairsCsv()).toBeNull();
    // Taken after the worker's next task: built there.
    indexApi.holdPairsCsvPaths(paths);
    indexApi.groupNearDuplicates({ ...input(), csvAhead: true });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(text(indexApi.takePairsCsv())).toBe(expected);
  });

  it('is not built without paths held for that grouping, nor for a grouping that did not ask', () => {
    indexApi.groupNearDuplicates({ ...input(), csvAhead: true });
    expect(indexApi.takePairsCsv()).toBeNull();
    indexApi.holdPairsCsvPaths(paths);
    indexApi.groupNearDuplicates(input());
    expect(indexApi.takePairsCsv()).toBeNull();
  });

  it('stands for the one relation and the one paths array it was built for, once', async () => {
    const r = indexApi.groupNearDuplicates(input());
    const chunks = Promise.resolve([new Uint8Array([1])]);
    rememberCsvAhead(r.relation, paths, chunks);
    expect(takeCsvAhead(r.relation, [...paths])).toBeNull();
    rememberCsvAhead(r.relation, paths, chunks);
    expect(takeCsvAhead(indexApi.groupNearDuplicates(input()).relation, paths)).toBeNull();
    expect(await takeCsvAhead(r.relation, paths)).toEqual([new Uint8Array([1])]);
    expect(takeCsvAhead(r.relation, paths)).toBeNull();
  });
});
