/**
 * The CLI's spill of feature sets past the kept budget (src/cli/set-spill.ts): a scan whose budget is
 * spent from the start verifies every candidate from the spilled sets, reading no file again, with the
 * same Jaccards, pairs and CSV as measuring from the files; a set that cannot be read back makes its
 * document unreadable for the pair, never a wrong value.
 */
import { describe, expect, it } from 'vitest';
import { nodeIngestApi } from '../../../src/cli/node-ingest-api.ts';
import { withSpilledSets } from '../../../src/cli/set-spill.ts';
import { encodedSetSize } from '../../../src/core/groups/feature-set-codec.ts';
import { isSharedMemory, sharedSetsOf, type JobSets } from '../../../src/core/groups/packed-sets.ts';
import { createScanSession } from '../../../src/scan/scan-session.ts';
import { createScanStore } from '../../../src/scan/scan-store.ts';
import { decideNearDuplicates, emptyKnown } from '../../../src/scan/near-duplicate-search.ts';
import { plainScan, type ShownCorpus } from '../../../src/scan/scan-run.ts';
import type { Candidates, SearchCorpus } from '../../../src/scan/search-corpus.ts';
import { DEFAULT_SETTINGS } from '../../../src/core/simhash/settings.ts';
import { TEXTS } from '../corpus/corpus-model.ts';
import { pairsCsvText } from '../../fixtures/pairs-csv.ts';
import { inFolder, inThreadWorkers } from '../scan/in-thread-workers.ts';

/** The corpus model's texts, each with two near copies (a line cut, a line added). */
function files(): File[] {
  const out: File[] = [];
  TEXTS.forEach((text, i) => {
    const lines = text.split('\n');
    out.push(inFolder(`c/t${i}.txt`, text));
    out.push(inFolder(`c/cut/t${i}.txt`, lines.slice(1).join('\n')));
    out.push(inFolder(`c/more/t${i}.txt`, `${text}\nand one line more at the end of it`));
  });
  return out;
}

const unmeasured = (c: Candidates): Candidates => ({ ...c, jaccard: new Float64Array(c.pairs.count).fill(Number.NaN) });

describe('spilled feature sets', () => {
  it('verify every candidate without reading a file again, as reading the files would', async () => {
    const workers = { ...inThreadWorkers(nodeIngestApi), spillSets: true, keptSetsBudget: 0 };
    const store = createScanStore({ k: 16, kAuto: false, similarityThreshold: 0.5 });
    let own: ShownCorpus | null = null;
    await createScanSession(store, workers, async (scan) => (own = await plainScan(scan))).start({ kind: 'file-list', files: files() });
    const { corpus, candidates } = own!;
    expect(corpus.keptSets?.some((s) => s !== undefined) ?? false).toBe(false);
    expect(corpus.spilledSets!.fd.filter((fd) => fd !== 0).length).toBeGreaterThan(corpus.reps.length / 2);
    const signal = new AbortController().signal;
    const spilled = unmeasured(candidates);
    const fromSpill = await decideNearDuplicates(workers, signal, { ...corpus, known: emptyKnown() }, spilled, { similarityThreshold: 0.5, grouping: 'reference' });
    const { spilledSets: _, ...withoutSpill } = corpus;
    const read = unmeasured(candidates);
    const fromFiles = await decideNearDuplicates(workers, signal, { ...withoutSpill, known: emptyKnown() } as SearchCorpus, read, { similarityThreshold: 0.5, grouping: 'reference' });
    expect(fromSpill.verification.docsRead).toBe(0);
    expect(fromFiles.verification.docsRead).toBeGreaterThan(0);
    expect(fromSpill.verification.measured).toBeGreaterThan(0);
    expect(Array.from(spilled.jaccard)).toEqual(Array.from(read.jaccard));
    expect(fromSpill.verified.count).toBeGreaterThan(0);
    expect(pairsCsvText(fromSpill.relation, corpus.docs.paths)).toBe(pairsCsvText(fromFiles.relation, corpus.docs.paths));
  }, 60_000);

  it('measure a job whose sets are some in shared memory, some spilled, as reading the files would', async () => {
    const [a, b, c] = [TEXTS[1]!, `${TEXTS[1]!}\nand one line more`, TEXTS[1]!.split('\n').slice(1).join('\n')].map((text) => new TextEncoder().encode(text));
    const kept = await nodeIngestApi.ingestBatch([{ name: 'a.txt', bytes: a }, { name: 'c.txt', bytes: c }], DEFAULT_SETTINGS, { keepSets: true, shareSets: true });
    expect(isSharedMemory(kept.kept!.words.buffer)).toBe(true);
    const spilled = (await nodeIngestApi.ingestBatch([{ name: 'b.txt', bytes: b }], DEFAULT_SETTINGS, { keepSets: true, spillSets: true })).spilled!;
    const k = kept.kept!;
    // Items: a (shared), b (spilled), c (shared), as loadChunk names them.
    const job: JobSets = { docs: new Uint32Array(0), offsets: new Uint32Array(1), words: new Uint32Array(0) };
    // As the page keeps them: each set a view of its batch's shared words.
    const view = (s: number) => k.words.subarray(k.offsets[s]!, k.offsets[s + 1]!);
    job.shared = sharedSetsOf([0, 2], (i) => view(i / 2));
    expect([...job.shared.at, job.shared.buffers.length]).toEqual([k.offsets[0], k.offsets[1], 1]);
    const items = [{ name: 'a.txt' }, { name: 'b.txt', spilled: { fd: spilled.fd, at: spilled.at[0]!, words: spilled.words[0]! } }, { name: 'c.txt' }];
    const pairs = { a: Uint32Array.of(0, 1, 0), b: Uint32Array.of(1, 2, 2), count: 3 };
    const fromSets = await nodeIngestApi.measureContainment(items, pairs, 0, DEFAULT_SETTINGS, undefined, job);
    const fromFiles = await nodeIngestApi.measureContainment([{ name: 'a.txt', bytes: a }, { name: 'b.txt', bytes: b }, { name: 'c.txt', bytes: c }], pairs, 0, DEFAULT_SETTINGS);
    expect(Array.from(fromSets)).toEqual(Array.from(fromFiles));
    expect(fromSets[1]).toBeGreaterThan(0);
  });

  it('report an item whose set cannot be read back unreadable', async () => {
    const batch = await nodeIngestApi.ingestBatch([{ name: 'a.txt', bytes: new TextEncoder().encode(TEXTS[0]!) }], DEFAULT_SETTINGS, { keepSets: true, spillSets: true, setSizes: true });
    expect(batch.kept).toBeUndefined();
    const s = batch.spilled!;
    const good = withSpilledSets([{ name: 'a.txt', spilled: { fd: s.fd, at: s.at[0]!, words: s.words[0]! } }], undefined);
    expect(good.items[0]!.error).toBeUndefined();
    expect(good.kept!.docs.length).toBe(1);
    expect(encodedSetSize(good.kept!.words)).toBe(batch.setSizes![0]);
    const past = withSpilledSets([{ name: 'a.txt', spilled: { fd: s.fd, at: s.at[0]! + 1e9, words: s.words[0]! } }], undefined);
    expect(past.items[0]!.error).toMatch(/ends early/);
    expect(past.kept!.docs.length).toBe(0);
  });
});
