/**
 * A regroup after a plain reload, or after the unchanged folder was chosen again, finds what it finds
 * after the scan: the fast restore's and the merge's candidates are only the saved pairs the scan
 * accepted, so a lower similarity threshold must search again, not regroup them.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { closeCorpusDb } from '../../../src/storage/database.ts';
import { settled, tabsPerTest } from './corpus-model.ts';
import { proseWithCuts as folder } from './prose-cuts.ts';

const tab = tabsPerTest('reload-regroup');

/** The verified pairs on show, as sorted "a b" path pairs. */
function pairsShown(t: Awaited<ReturnType<typeof tab>>): string[] {
  const r = t.store.getSnapshot().result!;
  const v = r.relation.verified;
  const out: string[] = [];
  for (let p = 0; p < v.count; p++) out.push([r.docs.paths[v.a[p]!]!, r.docs.paths[v.b[p]!]!].sort().join(' '));
  return out.sort();
}

async function regroupTo(t: Awaited<ReturnType<typeof tab>>, similarityThreshold: number): Promise<void> {
  await t.session.regroup({ similarityThreshold });
  await settled(t);
  expect(t.store.getSnapshot().result!.similarityThreshold).toBe(similarityThreshold);
}

/** The folder scanned (at 0.8), then the pairs shown at the scan's threshold and at 0.5, back at 0.8. */
async function scanned(t: Awaited<ReturnType<typeof tab>>, files: File[]): Promise<{ atScan: string[]; lowerAfterScan: string[] }> {
  await t.session.start({ kind: 'file-list', files, sync: true });
  await settled(t);
  const atScan = pairsShown(t);
  await regroupTo(t, 0.5);
  const lowerAfterScan = pairsShown(t);
  // The cuts join their wholes only below 0.8: the case needs pairs the scan did not accept.
  expect(lowerAfterScan.length).toBeGreaterThan(atScan.length);
  await regroupTo(t, 0.8);
  expect(pairsShown(t)).toEqual(atScan);
  return { atScan, lowerAfterScan };
}

describe('a regroup after a plain reload', () => {
  it('at a lower similarity threshold shows the pairs the same regroup shows after the scan', async () => {
    let t = await tab();
    const { atScan, lowerAfterScan } = await scanned(t, folder());

    // A plain reload (the saved pairs stand for the search), then the same lower threshold.
    t.persistence.close();
    closeCorpusDb();
    t = await tab();
    expect(pairsShown(t)).toEqual(atScan);
    await regroupTo(t, 0.5);
    expect(pairsShown(t)).toEqual(lowerAfterScan);
  });

  it('after the unchanged folder was chosen again, at a lower similarity threshold, shows the pairs the same regroup shows after the scan', async () => {
    const t = await tab();
    const files = folder();
    const { atScan, lowerAfterScan } = await scanned(t, files);

    // The same folder again: nothing is read, the saved pairs decided at 0.8 are carried by the merge.
    await t.session.start({ kind: 'file-list', files, sync: true });
    await settled(t);
    expect(pairsShown(t)).toEqual(atScan);
    await regroupTo(t, 0.5);
    expect(pairsShown(t)).toEqual(lowerAfterScan);
  });
});
