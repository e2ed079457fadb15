import { describe, expect, it } from 'vitest';
import { createScanSession } from '../../../src/scan/scan-session.ts';
import { createScanStore } from '../../../src/scan/scan-store.ts';
import { ingestApi, type IngestApi } from '../../../src/workers/ingest-api.ts';
import { inFolder, inThreadWorkers as workers } from './in-thread-workers.ts';

/** A 120-word text, made unique by `seed`. */
function text(seed: number): string {
  return Array.from({ length: 120 }, (_, i) => `w${(seed * 7919 + i * 104729) % 100003}`).join(' ');
}

/** The ingest API, recording every pair it measures, by path: Jaccards (verification) and containment counts. */
function recording() {
  const jaccards = new Set<string>();
  const containment: string[] = [];
  const named = (items: { name: string }[], pairs: { a: Uint32Array; b: Uint32Array; count: number }) =>
    Array.from({ length: pairs.count }, (_, p) => [items[pairs.a[p]].name, items[pairs.b[p]].name].sort().join(' ~ '));
  const api = {
    ...ingestApi,
    verifyPairs(...args: Parameters<IngestApi['verifyPairs']>) {
      for (const pair of named(args[0], args[1])) jaccards.add(pair);
      return ingestApi.verifyPairs(...args);
    },
    measureContainment(...args: Parameters<IngestApi['measureContainment']>) {
      containment.push(...named(args[0], args[1]));
      return ingestApi.measureContainment(...args);
    },
  };
  return { api, jaccards, containment };
}

describe('containment stage: what it measures', () => {
  it('never measures again a pair the near-duplicate stage measured: its count comes from the Jaccard and the sizes', async () => {
    // Excerpts of nearly the whole with a few words changed: close fingerprints (verified at k 16) and
    // contained at 0.9 with a Jaccard below 0.8, or near-duplicates.
    const words = [text(41), text(42), text(43), text(44)].join(' ').split(' ');
    const files = [inFolder('z/whole.txt', words.join(' ')), inFolder('z/other.txt', text(49))];
    for (const [share, every] of [[0.85, 40], [0.9, 30], [0.95, 25], [0.97, 20], [0.9, 50], [0.95, 40]]) {
      const cut = words.slice(0, Math.floor(words.length * share)).map((w, i) => (i % every === 7 ? `x${i}` : w));
      files.push(inFolder(`z/e-${share}-${every}.txt`, cut.join(' ')));
    }
    const { api, jaccards, containment } = recording();
    const store = createScanStore({ containmentThreshold: 0.9, k: 16 });
    await createScanSession(store, workers(api)).start({ kind: 'file-list', files });
    const r = store.getSnapshot().result!;
    const c = r.contained!;
    const contained = Array.from({ length: c.count }, (_, i) => [r.docs.paths[c.inner[i]], r.docs.paths[c.outer[i]]].sort().join(' ~ '));
    // The case is there: contained pairs whose Jaccard the near-duplicate stage measured.
    expect(contained.filter((pair) => jaccards.has(pair)).length).toBeGreaterThanOrEqual(2);
    expect(containment.filter((pair) => jaccards.has(pair))).toEqual([]);
    expect(contained).toContain('z/e-0.85-40.txt ~ z/whole.txt');
  });
});
