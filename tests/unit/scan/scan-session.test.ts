import { describe, expect, it } from 'vitest';
import { createScanSession } from '../../../src/scan/scan-session.ts';
import { createScanStore, type ScanState } from '../../../src/scan/scan-store.ts';
import { searchContained } from '../../../src/scan/contained-search.ts';
import { adoptResult } from '../../../src/scan/search-corpus.ts';
import { ingestApi, type IngestApi } from '../../../src/workers/ingest-api.ts';
import { DocStatus } from '../../../src/core/documents/document-status.ts';
import { COUNT_BELOW } from '../../../src/core/simhash/simhash.ts';
import type { ScanResult } from '../../../src/scan/scan-result.ts';
import { plainScan, type ScanStage } from '../../../src/scan/scan-run.ts';
import { inFolder, inThreadWorkers as workers } from './in-thread-workers.ts';
import { createFingerprinter } from '../../../src/core/simhash/fingerprinter.ts';
import { createDocumentFrequencyCounter } from '../../../src/core/simhash/document-frequencies.ts';

/** A 120-word text, made unique by `seed`. */
function text(seed: number): string {
  return Array.from({ length: 120 }, (_, i) => `w${(seed * 7919 + i * 104729) % 100003}`).join(' ');
}

describe('scan session', () => {
  it('runs a scan end to end: exact copies grouped, a near-duplicate pair found, skips listed', async () => {
    const base = text(1);
    const near = base.replace('w', 'changed w');
    const files = [
      inFolder('c/a.txt', base),
      inFolder('c/x/a.txt', base),
      inFolder('c/near.txt', near),
      inFolder('c/other.txt', text(2)),
      inFolder('c/empty.txt', ''),
      inFolder('c/bin.txt', new Uint8Array([1, 0, 2, 0])),
      inFolder('c/.git/config', 'x'),
    ];
    const store = createScanStore({ k: 6 });
    const states: ScanState[] = [];
    store.subscribe(() => {
      const s = store.getSnapshot().state;
      if (states[states.length - 1] !== s) states.push(s);
    });
    await createScanSession(store, workers()).start({ kind: 'file-list', files });
    const snap = store.getSnapshot();
    expect(states).toEqual(['scanning', 'done']);
    const r = snap.result!;
    expect(r.partial).toBe(false);
    expect(r.docs.count).toBe(6);
    const id = (p: string) => r.docs.paths.indexOf(p);
    expect(r.docs.status[id('c/a.txt')]).toBe(DocStatus.ok);
    expect(r.exactGroups.count).toBe(1);
    expect(Array.from(r.exactGroups.members).map((d) => r.docs.paths[d]).sort()).toEqual(['c/a.txt', 'c/x/a.txt']);
    const pairs = Array.from({ length: r.verified.count }, (_, p) => [r.docs.paths[r.verified.a[p]], r.docs.paths[r.verified.b[p]]].sort().join(' ~ '));
    const rep = r.docs.paths[r.representative[id('c/a.txt')]];
    expect(pairs).toEqual([[rep, 'c/near.txt'].sort().join(' ~ ')]);
    // One group holds the two copies and their near-duplicate; the relation has all three pairs.
    expect(r.groups.count).toBe(1);
    expect(r.relation.pairCount).toBe(3);
    expect(r.skipped.map((s) => `${s.path}:${s.reason}`).sort()).toEqual(['c/.git/:hidden', 'c/bin.txt:binary', 'c/empty.txt:empty']);
    expect(snap.progress).toMatchObject({ filesDone: 6, filesTotal: 6, bytesTotal: r.docs.sizes.reduce((a, b) => a + b, 0) });
  });

  it('leaves the files the exclusions match unread: not documents, not skipped, counted apart', async () => {
    const reads: string[] = [];
    /** A file that records being read (the scan reads a folder input's File through `stream`). */
    const watched = (path: string, content: string) => {
      const f = inFolder(path, content);
      const stream = f.stream.bind(f);
      Object.defineProperty(f, 'stream', { value: () => (reads.push(path), stream()) });
      return f;
    };
    const files = [
      watched('c/a.txt', text(1)),
      watched('c/b.txt', text(1)),
      watched('c/debug.log', text(2)),
      watched('c/drafts/x.txt', text(3)),
      watched('c/big.txt', text(4) + ' ' + text(5)),
    ];
    const store = createScanStore({ k: 6 });
    const exclusions = { patterns: ['drafts/**'], extensions: ['log'], minSize: null, maxSize: 1500 };
    const stage: ScanStage = async (scan) => {
      await scan.list();
      await scan.check(exclusions, null);
      scan.begin();
      for await (const _ of scan.read(false));
      return scan.search();
    };
    await createScanSession(store, workers(), stage).start({ kind: 'file-list', files, sync: true });
    const snap = store.getSnapshot();
    expect(snap.state).toBe('done');
    expect(snap.result!.docs.paths).toEqual(['c/a.txt', 'c/b.txt']);
    expect(snap.result!.skipped).toEqual([]);
    expect(reads.sort()).toEqual(['c/a.txt', 'c/b.txt']);
    expect(snap.progress).toMatchObject({ filesTotal: 2, filesExcluded: 3 });
  });

  it('publishes the phases it really is in: listing, reading, searching, grouping, saving', async () => {
    const files = [inFolder('c/a.txt', text(1)), inFolder('c/b.txt', text(1)), inFolder('c/c.txt', text(3))];
    const store = createScanStore({ k: 6 });
    const phases: string[] = [];
    store.subscribe(() => {
      const p = store.getSnapshot().progress?.phase;
      if (p && phases[phases.length - 1] !== p) phases.push(p);
    });
    await createScanSession(store, workers(), (scan) => plainScan(scan)).start({ kind: 'file-list', files });
    expect(store.getSnapshot().state).toBe('done');
    expect(phases[0]).toBe('listing');
    expect(phases).toContain('reading');
    expect(phases.indexOf('indexing')).toBeGreaterThan(phases.indexOf('reading'));
    expect(phases.indexOf('grouping')).toBeGreaterThan(phases.indexOf('indexing'));
    expect(phases[phases.length - 1]).toBe('saving');
  });

  it('cancels at once, keeps what finished, and can start again right away', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    // The real API, but every batch after the first waits until the test lets it go.
    const slowIngest = {
      ...ingestApi,
      async ingestBatch(...args: Parameters<IngestApi['ingestBatch']>) {
        if (++calls > 1) await gate;
        return ingestApi.ingestBatch(...args);
      },
    };
    const files = Array.from({ length: 3000 }, (_, i) => inFolder(`c/${i}.txt`, text(i).repeat(2)));
    const store = createScanStore({ k: 3 });
    const session = createScanSession(store, workers(slowIngest));
    const running = session.start({ kind: 'file-list', files });
    while (!(store.getSnapshot().progress?.filesDone ?? 0)) await new Promise((r) => setTimeout(r, 5));
    session.cancel();
    expect(store.getSnapshot().state).toBe('cancelled');
    await running;
    release();
    const partial = store.getSnapshot().result!;
    expect(partial.partial).toBe(true);
    const done = Array.from(partial.docs.status).filter((s) => s === DocStatus.ok).length;
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(3000);
    // Cancelled while reading: files were read, so the line under the results must not say "No file read".
    expect(partial.timings.readingMs).toBeGreaterThan(0);
    // What finished is searched in fresh workers after the cancel: the result is replaced, still partial.
    while (store.getSnapshot().result === partial) await new Promise((r) => setTimeout(r, 5));
    const searched = store.getSnapshot().result!;
    expect(searched.partial).toBe(true);
    expect(store.getSnapshot().state).toBe('cancelled');
    expect(Array.from(searched.representative).filter((r) => r >= 0).length).toBe(done);
    expect(searched.verification.candidates).toBeGreaterThanOrEqual(0);

    await session.start({ kind: 'file-list', files: files.slice(0, 10) });
    expect(store.getSnapshot().state).toBe('done');
    expect(store.getSnapshot().result!.docs.count).toBe(10);
  });
});

/** `text(seed)` with the words at `positions` replaced (each change removes 3 word 3-shingles). */
function edited(base: string, positions: number[], tag: string): string {
  const words = base.split(' ');
  for (const p of positions) words[p] = `${tag}${p}`;
  return words.join(' ');
}

describe('scan session: verified near-duplicates', () => {
  // k = 64 makes every pair a candidate: only exact verification decides.
  const base = text(7);
  const b = edited(base, [10, 40, 70, 100], 'b'); // J(a, b) = 106/130 = 0.815
  const c = edited(b, [25, 55, 85, 110], 'c'); // J(b, c) = 0.815, J(a, c) = 94/142 = 0.66
  const corpus = () => [inFolder('v/a.txt', base), inFolder('v/b.txt', b), inFolder('v/c.txt', c), inFolder('v/u.txt', text(8))];

  it('lists only pairs whose exact Jaccard reaches the threshold, with reference-centred groups', async () => {
    const store = createScanStore({ k: 64 });
    await createScanSession(store, workers()).start({ kind: 'file-list', files: corpus() });
    const r = store.getSnapshot().result!;
    const name = (d: number) => r.docs.paths[d].slice(2);
    const pairs = Array.from({ length: r.verified.count }, (_, p) => `${name(r.verified.a[p])}-${name(r.verified.b[p])}:${r.verified.jaccard[p].toFixed(3)}`);
    expect(pairs).toEqual(['a.txt-b.txt:0.815', 'b.txt-c.txt:0.815']);
    expect(r.verification.candidates).toBe(6);
    // u's three pairs (an unrelated text) are rejected by the MinHash sketches, the others measured.
    expect(r.verification.sketchRejected).toBe(3);
    expect(r.verification.measured).toBe(3);
    // Every feature set was kept from fingerprinting: no file is read a second time.
    expect(r.verification.docsRead).toBe(0);
    expect(Array.from(r.histogram).reduce((x, y) => x + y, 0)).toBe(6);
    expect(r.similarityThreshold).toBe(0.8);
    expect(r.grouping).toBe('reference');
    expect(r.chained).toBeNull();
    // b is near both a and c: it is the reference, and a, c sit in its group without being near each other.
    expect(r.groups.count).toBe(1);
    expect(name(r.groups.reference[0])).toBe('b.txt');
    expect(r.verified.count).toBe(2);
  });

  it('regroups at a new threshold, grouping and k without measuring a pair twice', async () => {
    const store = createScanStore({ k: 64 });
    const session = createScanSession(store, workers());
    await session.start({ kind: 'file-list', files: corpus() });
    const first = store.getSnapshot().result!;

    await session.regroup({ similarityThreshold: 0.6, grouping: 'components' });
    const r = store.getSnapshot().result!;
    expect(r).not.toBe(first);
    expect(r.docs).toBe(first.docs); // nothing fingerprinted again
    expect(r.verification.measured).toBe(0);
    // u's pairs were never measured (the sketches decide them again at 0.6): the three measured ones are cached.
    expect(r.verification.cached).toBe(3);
    expect(r.verification.sketchRejected).toBe(3);
    expect(r.verified.count).toBe(3); // a-c (0.66) now counts
    expect(r.grouping).toBe('components');
    expect(Array.from(r.chained!)).toEqual([0]); // a, b, c are a clique at 0.6

    await session.regroup({ similarityThreshold: 0.8 });
    const chained = store.getSnapshot().result!;
    expect(chained.groups.count).toBe(1);
    // a~b~c is one component, but a and c are not near-duplicates: it chains, and a's Jaccard to the reference is filled in.
    expect(Array.from(chained.chained!)).toEqual([1]);
    expect(Array.from(chained.groups.jaccardToReference).some(Number.isNaN)).toBe(false);

    await session.regroup({ k: 3 });
    const narrow = store.getSnapshot().result!;
    expect(narrow.k).toBe(3);
    expect(narrow.verification.measured).toBe(0);
    expect(narrow.histogram.length).toBe(4);
    expect(store.getSnapshot().regrouping).toBe(false);
  });

  it('shares a small verification among the workers: the files of a restored corpus read again in a chunk per worker', async () => {
    // 48 texts, each three words off the base: every pair is a candidate at k = 64, below 0.8 and above 0.6.
    const files = Array.from({ length: 48 }, (_, i) => inFolder(`s/${String(i).padStart(2, '0')}.txt`, edited(base, [i, i + 40, i + 80], 'x')));
    const store = createScanStore({ k: 64 });
    await createScanSession(store, workers()).start({ kind: 'file-list', files });
    let chunks = 0;
    const counting = { ...ingestApi, verifyPairs: (...args: Parameters<IngestApi['verifyPairs']>) => (chunks++, ingestApi.verifyPairs(...args)) };
    const restored = createScanSession(store, workers(counting));
    await restored.regroup({ similarityThreshold: 0.6 });
    const r = store.getSnapshot().result!;
    expect(r.verification.measured + r.verification.cached).toBe((48 * 47) / 2);
    expect(r.verification.measured).toBeGreaterThan(500);
    expect(chunks).toBeGreaterThanOrEqual(2);
  });

  it('regroups a result it did not search itself (a restored corpus), measuring only pairs not verified before', async () => {
    const store = createScanStore({ k: 64 });
    await createScanSession(store, workers()).start({ kind: 'file-list', files: corpus() });
    // A second session over the same store stands for a page that restored this result from storage.
    const restored = createScanSession(store, workers());
    await restored.regroup({ similarityThreshold: 0.6 });
    const r = store.getSnapshot().result!;
    expect(r.verified.count).toBe(3);
    expect(r.verification.cached).toBe(2); // the two verified pairs of the restored result
    expect(r.verification.measured).toBe(4);
    // A restored result has no kept feature sets: its files are read again, with the same Jaccards.
    expect(r.verification.docsRead).toBeGreaterThan(0);
    const name = (d: number) => r.docs.paths[d].slice(2);
    const pairs = Array.from({ length: r.verified.count }, (_, p) => `${name(r.verified.a[p])}-${name(r.verified.b[p])}:${r.verified.jaccard[p].toFixed(3)}`);
    expect(pairs).toEqual(['a.txt-b.txt:0.815', 'a.txt-c.txt:0.662', 'b.txt-c.txt:0.815']);
  });

  it('rescans the same files with TF-IDF weights (document frequencies counted first)', async () => {
    const store = createScanStore({ k: 64 });
    const session = createScanSession(store, workers());
    await session.start({ kind: 'file-list', files: corpus() });
    const binary = store.getSnapshot().result!;
    await session.rescan({ ...binary.settings, weights: 'tfidf' });
    const snap = store.getSnapshot();
    expect(snap.state).toBe('done');
    const r = snap.result!;
    expect(r.settings.weights).toBe('tfidf');
    expect(r.docs.paths).toEqual(binary.docs.paths);
    // The fingerprints are TF-IDF ones: equal to a fingerprinter given the corpus' frequencies.
    const fp = createFingerprinter({ ...binary.settings, weights: 'binary' });
    const counter = createDocumentFrequencyCounter();
    const texts = [base, b, c, text(8)];
    for (const t of texts) counter.add(fp.featureSet(t));
    const tfidf = createFingerprinter(r.settings, { documentFrequencies: counter.result() });
    for (let i = 0; i < texts.length; i++) {
      const d = r.docs.paths.indexOf(['v/a.txt', 'v/b.txt', 'v/c.txt', 'v/u.txt'][i]);
      const want = tfidf.fingerprint(texts[i]);
      expect([r.docs.hi[d], r.docs.lo[d]]).toEqual([want.hi >>> 0, want.lo >>> 0]);
    }
    expect(r.verified.count).toBe(2); // exact Jaccard does not depend on weights
  });
});

describe('scan session: contained documents', () => {
  // A 360-word whole, its middle third, and the whole with another text appended.
  const whole = [text(21), text(22), text(23)].join(' ');
  const excerpt = text(22);
  const longer = `${whole} ${text(24)} ${text(25)}`;
  const files = () => [inFolder('x/whole.txt', whole), inFolder('x/excerpt.txt', excerpt), inFolder('x/longer.txt', longer), inFolder('x/other.txt', text(26))];

  it('finds an excerpt in its whole and a whole in a longer document; the setting regroups without measuring again', async () => {
    let measured = 0;
    const counting = {
      ...ingestApi,
      measureContainment(...args: Parameters<IngestApi['measureContainment']>) {
        measured += args[1].count;
        return ingestApi.measureContainment(...args);
      },
    };
    const store = createScanStore({ containmentThreshold: 0.9 });
    const session = createScanSession(store, workers(counting));
    await session.start({ kind: 'file-list', files: files() });
    const r = store.getSnapshot().result!;
    const name = (d: number) => r.docs.paths[d].slice(2);
    const listed = (result: typeof r) => Array.from({ length: result.contained?.count ?? 0 }, (_, i) => `${name(result.contained!.inner[i])} in ${name(result.contained!.outer[i])}`).sort();
    expect(listed(r)).toEqual(['excerpt.txt in longer.txt', 'excerpt.txt in whole.txt', 'whole.txt in longer.txt']);
    expect(Array.from(r.contained!.containment)).toEqual([1, 1, 1]);
    expect(r.groups.count).toBe(0); // never merged into near-duplicate groups
    expect(r.containmentThreshold).toBe(0.9);
    const afterScan = measured;
    expect(afterScan).toBeGreaterThanOrEqual(3);

    await session.regroup({ containmentThreshold: 0 });
    expect(store.getSnapshot().result!.contained!.count).toBe(0);
    await session.regroup({ containmentThreshold: 0.9 });
    const again = store.getSnapshot().result!;
    expect(listed(again)).toEqual(listed(r));
    expect(again.docs).toBe(r.docs); // nothing fingerprinted again
    expect(measured).toBe(afterScan); // every count was known: no file read, nothing measured
  });
});

describe('scan session: containment turned on after a scan without it', () => {
  it('regroups from the feature sets, fingerprinting nothing again, and lists what a scan with it on lists (kept sets or the contents read again)', async () => {
    const whole = [text(51), text(52), text(53)].join(' ');
    const files = () => [inFolder('c/whole.txt', whole), inFolder('c/excerpt.txt', text(52)), inFolder('c/longer.txt', `${whole} ${text(54)}`), inFolder('c/other.txt', text(55))];
    let fingerprinted = 0;
    let sampled = 0;
    const counting = {
      ...ingestApi,
      ingestBatch(...args: Parameters<IngestApi['ingestBatch']>) {
        fingerprinted += args[0].length;
        return ingestApi.ingestBatch(...args);
      },
      passagesOf(...args: Parameters<IngestApi['passagesOf']>) {
        sampled += args[0].length;
        return ingestApi.passagesOf(...args);
      },
    };
    const listed = (r: ScanResult) => Array.from({ length: r.contained?.count ?? 0 }, (_, i) => `${r.docs.paths[r.contained!.inner[i]]} in ${r.docs.paths[r.contained!.outer[i]]}`).sort();
    const store = createScanStore({ containmentThreshold: 0 });
    const session = createScanSession(store, workers(counting));
    await session.start({ kind: 'file-list', files: files() });
    const scanned = store.getSnapshot().result!;
    expect(scanned.passages).toBeUndefined();
    expect(fingerprinted).toBe(4);
    await session.regroup({ containmentThreshold: 0.9 });
    const regrouped = store.getSnapshot().result!;
    expect(regrouped.docs).toBe(scanned.docs);
    expect(fingerprinted).toBe(4); // nothing fingerprinted again
    expect(sampled).toBe(4);
    const fresh = createScanStore({ containmentThreshold: 0.9 });
    await createScanSession(fresh, workers()).start({ kind: 'file-list', files: files() });
    const want = fresh.getSnapshot().result!;
    expect(listed(regrouped)).toEqual(['c/excerpt.txt in c/longer.txt', 'c/excerpt.txt in c/whole.txt', 'c/whole.txt in c/longer.txt']);
    expect(listed(regrouped)).toEqual(listed(want));
    // The passages it sampled are the ones fingerprinting collects, kept with the result (saved with the corpus).
    expect(regrouped.passages).toEqual(want.passages);
    // A corpus with no feature sets kept (a restored one) samples its texts from their contents, read again.
    const { corpus } = adoptResult(scanned);
    expect(corpus.keptSets).toBeUndefined();
    const again = await searchContained(workers(), new AbortController().signal, corpus, 0.9, scanned.similarityThreshold);
    const named = Array.from({ length: again.count }, (_, i) => `${scanned.docs.paths[again.inner[i]]} in ${scanned.docs.paths[again.outer[i]]}`).sort();
    expect(named).toEqual(listed(want));
    expect(corpus.passages).toEqual(want.passages);
  });
});

describe('scan session: containment counts that stopped early', () => {
  it('a regroup at a lower threshold measures again the pairs whose count stopped below the higher one, and lists what a fresh scan lists', async () => {
    // Excerpts of a 360-word whole keeping 100%, 80% and 70% of their words (the rest new): at 0.9 only
    // the first is contained; the others are candidates whose measuring stops early.
    const words = [text(41), text(42), text(43)].join(' ').split(' ');
    const part = words.slice(100, 250);
    const mixed = (kept: number, seed: number) => [...part.slice(0, Math.round(kept * part.length)), ...text(seed).split(' ').slice(0, part.length - Math.round(kept * part.length))].join(' ');
    const files = () => [inFolder('z/whole.txt', words.join(' ')), inFolder('z/all.txt', part.join(' ')), inFolder('z/most.txt', mixed(0.8, 44)), inFolder('z/some.txt', mixed(0.7, 45)), inFolder('z/other.txt', text(46))];
    let below = 0;
    let measured = 0;
    const counting = {
      ...ingestApi,
      async measureContainment(...args: Parameters<IngestApi['measureContainment']>) {
        const counts = await ingestApi.measureContainment(...args);
        measured += args[1].count;
        for (let p = 0; p < args[1].count; p++) below += +(counts[3 * p] >= COUNT_BELOW);
        return counts;
      },
    };
    const listed = (r: ScanResult) => Array.from({ length: r.contained?.count ?? 0 }, (_, i) => `${r.docs.paths[r.contained!.inner[i]]} in ${r.docs.paths[r.contained!.outer[i]]}`).sort();
    const store = createScanStore({ containmentThreshold: 0.9 });
    const session = createScanSession(store, workers(counting));
    await session.start({ kind: 'file-list', files: files() });
    expect(listed(store.getSnapshot().result!)).toEqual(['z/all.txt in z/whole.txt']);
    expect(below).toBeGreaterThanOrEqual(1);
    const afterScan = measured;
    await session.regroup({ containmentThreshold: 0.6 });
    const regrouped = listed(store.getSnapshot().result!);
    expect(measured).toBeGreaterThan(afterScan);
    const fresh = createScanStore({ containmentThreshold: 0.6 });
    await createScanSession(fresh, workers()).start({ kind: 'file-list', files: files() });
    expect(regrouped).toEqual(listed(fresh.getSnapshot().result!));
    expect(regrouped).toEqual(expect.arrayContaining(['z/most.txt in z/whole.txt', 'z/some.txt in z/whole.txt']));
    // Back at 0.9: every count known (exact, or below with a bound under 0.9's count), nothing measured.
    const before = measured;
    await session.regroup({ containmentThreshold: 0.9 });
    expect(listed(store.getSnapshot().result!)).toEqual(['z/all.txt in z/whole.txt']);
    expect(measured).toBe(before);
  });
});

describe('scan session: contained documents between exact copies', () => {
  it('names a contained pair by the first copy of each text, whichever copy was fingerprinted (a fresh and a cached scan named it differently)', async () => {
    // The whole twice: which copy an ingest worker claims first depends on timing.
    const whole = [text(31), text(32), text(33)].join(' ');
    const files = [inFolder('y/a.txt', whole), inFolder('y/b.txt', whole), inFolder('y/excerpt.txt', text(32)), inFolder('y/other.txt', text(34))];
    const store = createScanStore({ containmentThreshold: 0.9 });
    await createScanSession(store, workers()).start({ kind: 'file-list', files });
    const r = store.getSnapshot().result!;
    const [a, b, excerpt] = ['y/a.txt', 'y/b.txt', 'y/excerpt.txt'].map((p) => r.docs.paths.indexOf(p));
    const named = (found: { inner: Uint32Array; outer: Uint32Array; count: number }) => Array.from({ length: found.count }, (_, i) => `${r.docs.paths[found.inner[i]]} in ${r.docs.paths[found.outer[i]]}`);
    expect(named(r.contained!)).toEqual(['y/excerpt.txt in y/a.txt']);
    // The same corpus as if b had been fingerprinted and a left as its copy (b's passages, b the representative).
    const { corpus } = adoptResult(r);
    const rep = r.representative[a];
    const swapped = r.representative.map((x) => (x === rep ? b : x));
    const p = r.passages!;
    const docs = p.docs.map((d) => (d === rep ? b : d));
    const order = Array.from(docs.keys()).sort((x, y) => docs[x] - docs[y]);
    const keys: number[] = [];
    const offsets = [0];
    for (const i of order) {
      keys.push(...p.keys.subarray(p.offsets[i], p.offsets[i + 1]));
      offsets.push(keys.length);
    }
    corpus.representative = swapped;
    corpus.reps = Uint32Array.from(Array.from(corpus.reps, (d) => (d === rep ? b : d)).sort((x, y) => x - y));
    corpus.passages = { docs: Uint32Array.from(order, (i) => docs[i]), offsets: Uint32Array.from(offsets), keys: Uint32Array.from(keys) };
    expect(excerpt).toBeGreaterThanOrEqual(0);
    const again = await searchContained(workers(), new AbortController().signal, corpus, 0.9, r.similarityThreshold);
    expect(named(again)).toEqual(['y/excerpt.txt in y/a.txt']);
  });
});
