/**
 * `npm run bench -- check [--n 1000000] [--runs 30] [--k 12] [--tables]`: "Check files against the corpus" for one
 * dropped file against an n-document corpus held in memory (as after a restore): the file is
 * fingerprinted by the ingest worker's API (called directly, in Node), exact copies are found by
 * content hash, near candidates by a linear popcount scan over hi/lo, and each candidate is verified by
 * exact Jaccard against its stored text. A near-duplicate and an exact copy are planted at random positions.
 * With --tables, near candidates come from the stored permuted tables instead (written with the app's
 * plan for n and k into fake-indexeddb, Node's IndexedDB; only the shards the query's keys hit are read);
 * k must then be small enough for the tables to pay (planStoredTables), e.g. --k 3.
 */
import 'fake-indexeddb/auto';
import { checkFile, nearCandidates, planStoredTables, tableCandidates } from '../src/corpus/check-against-corpus.ts';
import type { CheckTools } from '../src/corpus/check-against-corpus.ts';
import { buildIndex } from '../src/core/index/permuted-index.ts';
import { popcount32 } from '../src/core/simhash/fingerprint64.ts';
import { configureStorage } from '../src/storage/database.ts';
import { queryStoredTables, writePermutedIndex } from '../src/storage/index-shards.ts';
import type { ScanDocs } from '../src/scan/scan-result.ts';
import { ingestApi } from '../src/workers/ingest-api.ts';
import { DocStatus } from '../src/core/documents/document-status.ts';
import { createFingerprinter } from '../src/core/simhash/fingerprinter.ts';
import { DEFAULT_SETTINGS } from '../src/core/simhash/settings.ts';
import { DEFAULT_SIMILARITY_THRESHOLD } from '../src/core/quality/defaults.ts';
import { benchOptions, formatSummary, JSON_OPTION, median, numberOption, quantile, report, summarize } from './harness.ts';


/** A seeded text of about `words` pseudo-words. */
function text(seed: number, words: number): string {
  let s = seed;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out.push(`w${(s >>> 8) % 5000}`);
  }
  return out.join(' ');
}

export async function main(args: string[]): Promise<void> {
  const o = benchOptions(args, { n: { type: 'string' }, runs: { type: 'string' }, k: { type: 'string' }, tables: { type: 'boolean' }, ...JSON_OPTION }, 'usage: npm run bench -- check [--n 1000000] [--runs 30] [--k 12] [--tables] [--json]');
  if (!o) return;
  const n = numberOption(o.n, 1_000_000, 'n');
  const runs = numberOption(o.runs, 30, 'runs');
  const k = numberOption(o.k, 12, 'k');
  const settings = DEFAULT_SETTINGS;
  const encoder = new TextEncoder();
  const ingest = async (name: string, bytes: Uint8Array) => ingestApi.ingestBatch([{ name, bytes: bytes.slice() }], settings, {});

  // The corpus: random fingerprints and hashes, two planted documents with real stored texts.
  let seed = 0x9e3779b9;
  const rand = () => (seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0);
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  const hashHi = new Uint32Array(n);
  const hashLo = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    hi[i] = rand();
    lo[i] = rand();
    hashHi[i] = rand();
    hashLo[i] = rand();
  }
  const empty = new File([], 'x.txt');
  const files = new Array<File>(n).fill(empty);
  const paths = Array.from({ length: n }, (_, i) => `folder/sub/doc${i}.txt`);
  const docs: ScanDocs = {
    count: n,
    paths,
    files,
    sizes: new Float64Array(n),
    status: new Uint8Array(n).fill(DocStatus.ok),
    flags: new Uint8Array(n),
    hi,
    lo,
    words: new Uint32Array(n).fill(800),
    hashHi,
    hashLo,
  };
  const query = text(42, 800);
  const words = query.split(' ');
  for (const at of [100, 400, 700]) words[at] = 'edited';
  let nearText = words.join(' ');
  // At a small k the three-word edit may fall outside k: then the closest one-word edit within k is planted.
  const queryPrint = await ingest('query.txt', encoder.encode(query));
  const distanceTo = async (t: string) => {
    const p = await ingest('near.txt', encoder.encode(t));
    return popcount32((p.hi[0]! ^ queryPrint.hi[0]!) >>> 0) + popcount32((p.lo[0]! ^ queryPrint.lo[0]!) >>> 0);
  };
  for (let attempt = 0; (await distanceTo(nearText)) > k || (await distanceTo(nearText)) === 0; attempt++) {
    if (attempt >= 800) throw new Error(`no one-word edit within k = ${k}`);
    const one = query.split(' ');
    one[attempt] = `edited${attempt}`;
    nearText = one.join(' ');
  }
  const nearAt = rand() % n;
  const exactAt = (nearAt + 1 + (rand() % (n - 1))) % n;
  const nearPrint = await ingest('near.txt', encoder.encode(nearText));
  hi[nearAt] = nearPrint.hi[0]!;
  lo[nearAt] = nearPrint.lo[0]!;
  hashHi[nearAt] = nearPrint.hashHi[0]!;
  hashLo[nearAt] = nearPrint.hashLo[0]!;
  files[nearAt] = new File([nearText], 'near.txt');
  const queryBytes = encoder.encode(query);
  const exactPrint = await ingest('copy.txt', queryBytes);
  hi[exactAt] = exactPrint.hi[0]!;
  lo[exactAt] = exactPrint.lo[0]!;
  hashHi[exactAt] = exactPrint.hashHi[0]!;
  hashLo[exactAt] = exactPrint.hashLo[0]!;
  files[exactAt] = new File([query], 'copy.txt');

  const featureSets = createFingerprinter({ ...settings, weights: 'binary' });
  const tools: CheckTools = { ingest, featureSet: (t: string) => featureSets.featureSet(t), threshold: DEFAULT_SIMILARITY_THRESHOLD };
  const useTables = o.tables === true;
  let tableNote = '';
  if (useTables) {
    const plan = planStoredTables(n, k);
    if (!plan) throw new Error(`k = ${k}: stored tables do not pay at n = ${n} (planStoredTables), use a smaller --k`);
    configureStorage({ name: `simsift-bench-check-${Date.now()}`, events: {} });
    const tw = performance.now();
    await writePermutedIndex(buildIndex(hi, lo, k, { blocks: plan.blocks }));
    tableNote = `stored ${plan.tableCount} tables (m = ${plan.blocks}, keys >= ${plan.keyBits} bits) in ${((performance.now() - tw) / 1000).toFixed(1)} s`;
    const corpus = { ids: Uint32Array.from({ length: n }, (_, i) => i), hi, lo };
    tools.near = async (qHi, qLo, radius, limit) =>
      tableCandidates(await queryStoredTables({ k, blocks: plan.blocks }, qHi, qLo, { k: radius, corpus }), (id) => id, docs.status, DocStatus.ok, limit);
  }
  const totals: number[] = [];
  const scans: number[] = [];
  const tableQueries: number[] = [];
  let last = await checkFile(docs, k, 'query.txt', queryBytes, tools); // warm-up (WASM, JIT)
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    last = await checkFile(docs, k, 'query.txt', queryBytes, tools);
    totals.push(performance.now() - t0);
    const t1 = performance.now();
    nearCandidates(hi, lo, docs.status, DocStatus.ok, exactPrint.hi[0]!, exactPrint.lo[0]!, k, 16);
    scans.push(performance.now() - t1);
    if (tools.near) {
      const t2 = performance.now();
      await tools.near(exactPrint.hi[0]!, exactPrint.lo[0]!, k, 16);
      tableQueries.push(performance.now() - t2);
    }
  }
  if (last.exact.length !== 1 || last.exact[0] !== paths[exactAt]) throw new Error(`exact copy not found: ${JSON.stringify(last.exact)}`);
  if (!last.near.some((m) => m.path === paths[nearAt])) throw new Error(`near-duplicate not found: ${JSON.stringify(last.near)}`);
  const found = last.near.find((m) => m.path === paths[nearAt])!;
  console.log(`check one file (${queryBytes.length} bytes, ${words.length} words) against ${n.toLocaleString('en')} documents, k = ${k}, ${runs} runs (Node ${process.version}):`);
  console.log(`  whole check   ${formatSummary(summarize(totals), 'ms')}, p90 ${quantile(totals, 0.9).toFixed(1)} ms`);
  console.log(`  near candidates: ${useTables ? 'stored permuted tables' : 'linear scan'}${tableNote ? ` (${tableNote})` : ''}`);
  console.log(`  linear scan   median ${median(scans).toFixed(1)} ms (popcount over hi/lo)`);
  if (tableQueries.length > 0) console.log(`  table query   median ${median(tableQueries).toFixed(1)} ms, p90 ${quantile(tableQueries, 0.9).toFixed(1)} ms (shards hit read from IndexedDB, candidates checked)`);
  console.log(`  found: exact copy at ${exactAt}; near-duplicate at ${nearAt} (distance ${found.distance}, Jaccard ${found.jaccard?.toFixed(3)}); ${last.near.length} verified near match(es)`);
  report('check', { n, k, tables: useTables, wholeCheckMs: summarize(totals), linearScanMs: summarize(scans) }, o);
}
