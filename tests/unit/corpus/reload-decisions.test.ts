/**
 * What the histogram tells after a plain reload (#38): the caption and legend say how the candidates were
 * decided exactly as before the reload (the counts are saved with the pairs), and pairs saved without the
 * counts (an older SimSift) are said to be not known, never "each checked by exact Jaccard". And the
 * restore's settings guard: saved set sizes and sketches of another fingerprint rule never decide a pair.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { closeCorpusDb, writeTransaction } from '../../../src/storage/database.ts';
import { getSettings, putSettings } from '../../../src/storage/settings-repository.ts';
import { FINGERPRINT_RULE, UNSTAMPED_RULE } from '../../../src/core/simhash/fingerprint-rule.ts';
import { decisionsOf, type ScanResult } from '../../../src/scan/scan-result.ts';
import { describeChecks, describeRejected, pairsWithin, verifiedAndRejected } from '../../../src/ui/histogram/distance-histogram.ts';
import { settled, tabsPerTest } from './corpus-model.ts';
import { proseWithCuts as folder } from './prose-cuts.ts';

const tab = tabsPerTest('reload-decisions');

/** The histogram's caption tail and legend words for `result` at its k, as DistanceHistogram computes them. */
function told(result: ScanResult): { caption: string; legend: string } {
  const { histogram, k, relation } = result;
  const within = pairsWithin(histogram, k);
  const verified = pairsWithin(verifiedAndRejected(histogram, relation.verified.distance, relation.verified.count).verified, k);
  const decided = decisionsOf(result.verification);
  return { caption: describeChecks(within, verified, decided), legend: describeRejected(within, decided) };
}

/** Closes `t` (the page goes away) and opens a new tab on the same database: a plain reload. */
async function reload(t: Awaited<ReturnType<typeof tab>>) {
  t.persistence.close();
  closeCorpusDb();
  return tab();
}

describe('the histogram after a plain reload', () => {
  it('repeats how the candidates were decided; pairs saved without the counts say they are not known', async () => {
    let t = await tab();
    await t.session.start({ kind: 'file-list', files: folder(), sync: true });
    await settled(t);
    const scanned = t.store.getSnapshot().result!;
    const before = told(scanned);
    console.log(`after the scan: ${before.caption}; legend: candidates rejected${before.legend}`);
    // The case of #38: some candidates ruled out by their sizes, not measured.
    expect(before.caption).toMatch(/^: \d+ by their feature-set sizes.* ruled out without measuring, the other \d+ checked by exact Jaccard: \d+ verified$/);
    expect(before.legend).toBe(' (by set sizes, sketches or exact Jaccard)');

    t = await reload(t);
    const restored = t.store.getSnapshot().result!;
    // The saved pairs stood for the search (nothing searched or measured), and the page says what it said before.
    expect(restored.verification.restored).toBeTypeOf('object');
    expect(restored.verification.measured).toBe(0);
    expect(told(restored)).toEqual(before);

    // Pairs saved by a SimSift that did not keep the counts: not known, so nothing more than always holds.
    await writeTransaction(['meta'], async (tx) => {
      const store = tx.objectStore('meta');
      const record = await store.get('verified');
      if (record?.key !== 'verified' || !record.decisions) throw new Error('the saved pairs carry no decision counts');
      const { decisions: _, ...older } = record;
      await store.put(older);
    });
    t = await reload(t);
    const older = t.store.getSnapshot().result!;
    expect(older.verification.restored).toBe('not known');
    expect(told(older)).toEqual({
      caption: `, each decided by the feature-set sizes, MinHash sketches or exact Jaccard: ${before.caption.split(': ').pop()}`,
      legend: ' (by set sizes, sketches or exact Jaccard)',
    });
  });
});

/** Deletes the saved pairs, so the next restore searches and verifies again (as after a write the pairs do not fit). */
const forgetSavedPairs = () => writeTransaction(['meta'], async (tx) => void (await tx.objectStore('meta').delete('verified')));

describe("the restore's settings guard", () => {
  it('verifies with the saved set sizes and sketches of this rule, and never with those of another rule', async () => {
    let t = await tab();
    await t.session.start({ kind: 'file-list', files: folder(), sync: true });
    await settled(t);
    const scanned = t.store.getSnapshot().result!.verification;
    // Without saved pairs the restore verifies again, and the saved sizes rule out what the scan's did.
    await forgetSavedPairs();
    t = await reload(t);
    const same = t.store.getSnapshot().result!.verification;
    expect(same.restored).toBeUndefined();
    expect(same.sizeRejected).toBe(scanned.sizeRejected);
    expect(same.sizeRejected).toBeGreaterThan(0);

    // The same corpus stamped with an older fingerprint rule: its sizes and sketches are of other feature
    // sets, so every candidate is measured from the kept contents and none is ruled out by them.
    expect(UNSTAMPED_RULE).not.toBe(FINGERPRINT_RULE);
    await putSettings({ ...(await getSettings())!, rule: UNSTAMPED_RULE });
    await forgetSavedPairs();
    t = await reload(t);
    const older = t.store.getSnapshot().result!.verification;
    expect(older.restored).toBeUndefined();
    expect([older.sizeRejected, older.sketchRejected]).toEqual([0, 0]);
    expect(older.measured).toBe(older.candidates - older.cached);
    expect(older.candidates).toBe(scanned.candidates);
  });
});
