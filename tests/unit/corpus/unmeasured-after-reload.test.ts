/**
 * Candidates whose texts are not at hand cannot be measured: after a reload of a corpus saved without its
 * file contents, a regroup at another k finds candidates it cannot read, and the histogram says so
 * instead of counting them among those "checked by exact Jaccard".
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { closeCorpusDb } from '../../../src/storage/database.ts';
import { decisionsOf } from '../../../src/scan/scan-result.ts';
import { describeChecks, pairsWithin, verifiedAndRejected } from '../../../src/ui/histogram/distance-histogram.ts';
import { settled, tabsPerTest } from './corpus-model.ts';
import { proseWithCuts } from './prose-cuts.ts';

const tab = tabsPerTest('unmeasured-after-reload');

describe('a regroup after a reload without kept contents', () => {
  it('names the candidates it could not measure, and checks none of them by exact Jaccard', async () => {
    let t = await tab();
    await t.persistence.setKeepContents(false);
    await t.session.start({ kind: 'file-list', files: proseWithCuts(), sync: true });
    await settled(t);
    t.persistence.close();
    closeCorpusDb();
    t = await tab();
    const k = t.store.getSnapshot().result!.k;
    await t.session.regroup({ k: k + 4 });
    await settled(t);
    const result = t.store.getSnapshot().result!;
    expect(result.k).toBe(k + 4);
    const v = result.verification;
    // Nothing is at hand to read: every candidate not ruled out by a bound is left unmeasured.
    expect(v.measured).toBe(0);
    expect(v.unmeasured).toBeGreaterThan(0);
    expect(v.unmeasured).toBe(v.candidates - v.cached - v.sizeRejected - v.sketchRejected);
    const within = pairsWithin(result.histogram, result.k);
    const verified = pairsWithin(verifiedAndRejected(result.histogram, result.relation.verified.distance, result.relation.verified.count).verified, result.k);
    const caption = describeChecks(within, verified, decisionsOf(v));
    console.log(`after the regroup: ${caption}`);
    expect(caption).toContain(`${v.unmeasured!.toLocaleString('en')} not measured`);
    expect(caption).not.toContain('each checked by exact Jaccard');
  });
});
