/**
 * The size bound before exact Jaccard (verify-candidates.ts): on real text, at several thresholds, the
 * verified pairs and the CSV are the same with the bound (feature sets kept, sizes known) as without it
 * (no kept sets: every candidate read and measured), a rejected pair is never remembered as measured,
 * and a regroup at a lower threshold finds the pairs the bound rejected at a higher one.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { realTextSources } from '../../../bench/real-corpus.ts';
import { createScanSession } from '../../../src/scan/scan-session.ts';
import { createScanStore } from '../../../src/scan/scan-store.ts';
import { decideNearDuplicates, emptyKnown } from '../../../src/scan/near-duplicate-search.ts';
import { BOUND_REJECTED } from '../../../src/scan/verify-candidates.ts';
import { plainScan, type ShownCorpus } from '../../../src/scan/scan-run.ts';
import type { Candidates, SearchCorpus } from '../../../src/scan/search-corpus.ts';
import type { Grouping } from '../../../src/scan/scan-result.ts';
import { pairsCsvText } from '../../fixtures/pairs-csv.ts';
import { inFolder, inThreadWorkers } from './in-thread-workers.ts';

const K = 16;
const THRESHOLDS = [0.3, 0.5, 0.7, 0.8, 0.9, 0.95];
const FIXTURE_DOCUMENTS = join(import.meta.dirname, '../../fixtures/documents');

const workers = () => inThreadWorkers();

/**
 * Real text: the npm prose files, every 25th kernel Documentation file (where linux-doc is installed)
 * and the document fixtures, each with two near copies cut to a share of its lines (a prefix keeps
 * J near that share, so pairs sit on both sides of every threshold, some right at the bound).
 */
function realTextFiles(): File[] {
  const shares = [0.95, 0.85, 0.75, 0.65, 0.55, 0.45, 0.35];
  const decoder = new TextDecoder();
  const files: File[] = [];
  const sources = realTextSources({ kernel: 'if-installed' }).filter((s, i) => !s.path.startsWith('kernel/') || i % 25 === 0);
  sources.forEach((s, i) => {
    files.push(inFolder(`c/${s.path}`, s.bytes as Uint8Array<ArrayBuffer>));
    const lines = decoder.decode(s.bytes).split('\n');
    for (const v of [0, 1]) {
      const share = shares[(i * 2 + v) % shares.length];
      files.push(inFolder(`c/cut${v}/${s.path}`, lines.slice(0, Math.ceil(lines.length * share)).join('\n')));
    }
  });
  for (const name of readdirSync(FIXTURE_DOCUMENTS)) {
    if (name.endsWith('.txt')) files.push(inFolder(`c/fixtures/${name}`, readFileSync(join(FIXTURE_DOCUMENTS, name))));
  }
  return files;
}

/** The candidates with nothing measured yet (a scan's first verification). */
function unmeasured(c: Candidates): Candidates {
  return { ...c, jaccard: new Float64Array(c.pairs.count).fill(Number.NaN) };
}

function withoutKeptSets(corpus: SearchCorpus): SearchCorpus {
  const { keptSets: _, sketches: __, setSizes: ___, ...rest } = corpus;
  return { ...rest, known: emptyKnown() };
}

function csvOf(near: Awaited<ReturnType<typeof decideNearDuplicates>>, paths: readonly string[]): string {
  return pairsCsvText(near.relation, paths);
}

function pairsOf(v: { a: Uint32Array; b: Uint32Array; distance: Uint8Array; jaccard: Float32Array; count: number }): string[] {
  return Array.from({ length: v.count }, (_, p) => `${v.a[p]}-${v.b[p]}:${v.distance[p]}:${v.jaccard[p]}`);
}

describe('the size bound before exact Jaccard, on real text', () => {
  let own: ShownCorpus;
  let files: File[];
  const signal = new AbortController().signal;

  beforeAll(async () => {
    files = realTextFiles();
    const store = createScanStore({ k: K, kAuto: false, similarityThreshold: 0.9 });
    await createScanSession(store, workers(), async (scan) => {
      const o = await plainScan(scan);
      return (own = { ...o, candidates: { ...o.candidates, jaccard: o.candidates.jaccard.slice() } });
    }).start({
      kind: 'file-list',
      files,
    });
    expect(own.corpus.keptSets?.some((s) => s !== undefined)).toBe(true);
  }, 120_000);

  it('gives the same pairs and CSV bytes with the bound as without it, at every threshold', async () => {
    const w = workers();
    const paths = own.result.docs.paths;
    const counts: string[] = [];
    let rejectedAnywhere = 0;
    for (const t of THRESHOLDS) {
      for (const grouping of (t === 0.8 ? ['reference', 'components'] : ['reference']) as Grouping[]) {
        const bounded = unmeasured(own.candidates);
        const filtered = await decideNearDuplicates(w, signal, { ...own.corpus, known: emptyKnown() }, bounded, { similarityThreshold: t, grouping });
        const measuredAll = unmeasured(own.candidates);
        const truth = await decideNearDuplicates(w, signal, withoutKeptSets(own.corpus), measuredAll, { similarityThreshold: t, grouping });
        expect(truth.verification.sizeRejected + truth.verification.sketchRejected).toBe(0);
        expect(pairsOf(filtered.verified)).toEqual(pairsOf(truth.verified));
        expect(csvOf(filtered, paths)).toBe(csvOf(truth, paths));
        expect(filtered.verification.measured + filtered.verification.sizeRejected + filtered.verification.sketchRejected).toBe(truth.verification.measured);
        // Every pair the bound rejected really is below the threshold; every other value is the measured one.
        for (let p = 0; p < bounded.pairs.count; p++) {
          if (bounded.jaccard[p] === BOUND_REJECTED) expect(measuredAll.jaccard[p]).toBeLessThan(t);
          else expect(bounded.jaccard[p]).toBe(measuredAll.jaccard[p]);
        }
        rejectedAnywhere += filtered.verification.sizeRejected;
        if (grouping === 'reference') {
          counts.push(
            `t=${t}: ${bounded.pairs.count} candidates, ${filtered.verification.sizeRejected} rejected by size, ${filtered.verification.sketchRejected} by the sketches, ${filtered.verification.measured} measured, ${filtered.verified.count} pairs (same without the bound)`,
          );
        }
      }
    }
    console.log(`size bound over ${files.length} real-text files at k=${K}:\n  ${counts.join('\n  ')}`);
    expect(rejectedAnywhere).toBeGreaterThan(0);
  }, 120_000);

  it('decides by the set sizes and sketches every document has, without reading, the pairs of documents whose sets were not kept (the budget spent): same pairs and CSV, fewer files read', async () => {
    const w = workers();
    const paths = own.result.docs.paths;
    const { keptSets: _, ...unkept } = own.corpus;
    expect(own.corpus.sketches?.length).toBe(own.result.docs.count * 64);
    for (const t of [0.9]) {
      const kept = await decideNearDuplicates(w, signal, { ...own.corpus, known: emptyKnown() }, unmeasured(own.candidates), { similarityThreshold: t, grouping: 'reference' });
      const bounded = unmeasured(own.candidates);
      const filtered = await decideNearDuplicates(w, signal, { ...unkept, known: emptyKnown() }, bounded, { similarityThreshold: t, grouping: 'reference' });
      const measuredAll = unmeasured(own.candidates);
      const truth = await decideNearDuplicates(w, signal, withoutKeptSets(own.corpus), measuredAll, { similarityThreshold: t, grouping: 'reference' });
      expect(pairsOf(filtered.verified)).toEqual(pairsOf(truth.verified));
      expect(csvOf(filtered, paths)).toBe(csvOf(truth, paths));
      // The sizes came with every document, not only with the kept sets: the bounds decide as much without them.
      expect([filtered.verification.sizeRejected, filtered.verification.sketchRejected]).toEqual([kept.verification.sizeRejected, kept.verification.sketchRejected]);
      expect(filtered.verification.sizeRejected).toBeGreaterThan(0);
      expect(filtered.verification.sketchRejected).toBeGreaterThan(0);
      expect(filtered.verification.measured + filtered.verification.sizeRejected + filtered.verification.sketchRejected).toBe(truth.verification.measured);
      expect(filtered.verification.docsRead).toBeLessThan(truth.verification.docsRead);
      for (let p = 0; p < bounded.pairs.count; p++) if (bounded.jaccard[p] === BOUND_REJECTED) expect(measuredAll.jaccard[p]).toBeLessThan(t);
      console.log(
        `t=${t} without kept sets: ${bounded.pairs.count} candidates, ${filtered.verification.sizeRejected} rejected by the size bound, ${filtered.verification.sketchRejected} by the sketches, ${filtered.verification.docsRead} files read (${truth.verification.docsRead} without either)`,
      );
    }
  }, 120_000);

  it('never remembers a rejected pair, and a regroup at a lower threshold finds what the bound rejected at a higher one', async () => {
    const w = workers();
    const store = createScanStore({ k: K, kAuto: false, similarityThreshold: 0.9 });
    // This scan's own search state: which of two identical files stands for both may differ between scans.
    let scanned: ShownCorpus | null = null;
    const session = createScanSession(store, w, async (scan) => (scanned = await plainScan(scan)));
    await session.start({ kind: 'file-list', files });
    const base = scanned!;
    const high = store.getSnapshot().result!;
    expect(high.verification.sizeRejected).toBeGreaterThan(0);
    const paths = high.docs.paths;
    for (const t of [0.5, 0.9, 0.3]) {
      const shown = await session.regroup({ similarityThreshold: t });
      const r = store.getSnapshot().result!;
      const truth = await decideNearDuplicates(w, signal, withoutKeptSets(base.corpus), unmeasured(base.candidates), { similarityThreshold: t, grouping: r.grouping });
      expect(pairsOf(r.verified)).toEqual(pairsOf(truth.verified));
      expect(pairsCsvText(r.relation, paths)).toBe(csvOf(truth, paths));
      // The cache holds measured Jaccards only, each the true one.
      const known = shown!.corpus.known;
      const truthOf = new Map<string, number>();
      const measured = unmeasured(base.candidates);
      await decideNearDuplicates(w, signal, withoutKeptSets(base.corpus), measured, { similarityThreshold: t, grouping: r.grouping });
      for (let p = 0; p < measured.pairs.count; p++) truthOf.set(`${measured.pairs.a[p]}-${measured.pairs.b[p]}`, measured.jaccard[p]);
      for (let q = 0; q < known.count; q++) {
        expect(known.jaccard[q]).toBeGreaterThanOrEqual(0);
        expect(known.jaccard[q]).toBe(truthOf.get(`${known.a[q]}-${known.b[q]}`));
      }
    }
  }, 120_000);
});
