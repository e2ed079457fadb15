/**
 * `npm run bench -- pairs [--n N] [--k 3,6,10] [--runs R] [--threads T]`: all-pairs on N random
 * fingerprints of which 10% are planted near-duplicates (copies of random ones with 1-3 flipped
 * bits): single-threaded and threaded times, pair counts, planted pairs found, index build and
 * query speed, memory.
 */
import { startPairsPool } from '../src/cli/pairs-threads.ts';
import { allPairs } from '../src/core/index/all-pairs.ts';
import { binomial } from '../src/core/index/block-layout.ts';
import { chooseBlocks } from '../src/core/index/search-cost.ts';
import { sortPairs, type PairList } from '../src/core/index/pair-list.ts';
import { buildIndex, queryIndex } from '../src/core/index/permuted-index.ts';
import { mulberry32 as makeRandom } from '../tests/fixtures/mulberry32.ts';
import { benchOptions, listOption, numberOption, summarize } from './harness.ts';

interface Options {
  n: number;
  ks: number[];
  runs: number;
  threads: number;
  blocks: number | undefined;
}

function parseOptions(args: string[]): Options | null {
  const v = benchOptions(
    args,
    { n: { type: 'string' }, k: { type: 'string' }, runs: { type: 'string' }, threads: { type: 'string' }, blocks: { type: 'string' } },
    'usage: npm run bench -- pairs [--n 1000000] [--k 3,6,10] [--runs 5] [--threads 2] [--blocks M]',
  );
  if (!v) return null;
  return {
    n: numberOption(v.n, 1_000_000, 'n'),
    ks: listOption(v.k, '3,6,10').map(Number),
    runs: numberOption(v.runs, 5, 'runs'),
    threads: numberOption(v.threads, 2, 'threads'),
    blocks: v.blocks === undefined ? undefined : numberOption(v.blocks, 0, 'blocks'),
  };
}

/** n fingerprints: 90% random, 10% copies of a random earlier one with 1-3 distinct flipped bits. */
function makeCorpus(n: number) {
  const rnd = makeRandom(20261122);
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  const planted = Math.floor(n / 10);
  const random = n - planted;
  const plantedFrom = new Uint32Array(planted);
  for (let i = 0; i < random; i++) {
    hi[i] = rnd();
    lo[i] = rnd();
  }
  for (let p = 0; p < planted; p++) {
    const i = random + p;
    const src = rnd() % random;
    plantedFrom[p] = src;
    let h = hi[src];
    let l = lo[src];
    const flips = 1 + (rnd() % 3);
    let flipped = 0n;
    while (flipped.toString(2).replace(/0/g, '').length < flips) flipped |= 1n << BigInt(rnd() & 63);
    h ^= Number(flipped >> 32n);
    l ^= Number(flipped & 0xffffffffn);
    hi[i] = h >>> 0;
    lo[i] = l >>> 0;
  }
  return { hi, lo, random, plantedFrom };
}

/** How many planted (source, copy) pairs are in the sorted pair list. */
function plantedFound(sorted: PairList, random: number, plantedFrom: Uint32Array): number {
  let found = 0;
  for (let p = 0; p < plantedFrom.length; p++) {
    const a = plantedFrom[p];
    const b = random + p;
    let lo = 0;
    let hi = sorted.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted.a[mid] < a || (sorted.a[mid] === a && sorted.b[mid] < b)) lo = mid + 1;
      else hi = mid;
    }
    if (lo < sorted.count && sorted.a[lo] === a && sorted.b[lo] === b) found++;
  }
  return found;
}

function samePairs(x: PairList, y: PairList): boolean {
  if (x.count !== y.count) return false;
  for (let i = 0; i < x.count; i++) {
    if (x.a[i] !== y.a[i] || x.b[i] !== y.b[i] || x.distance[i] !== y.distance[i]) return false;
  }
  return true;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const secs = (ms: number) => (ms / 1000).toFixed(3);

function summary(times: number[]): string {
  const s = summarize(times);
  return `min ${secs(s.min)} s, median ${secs(s.median)} s (${s.runs} runs)`;
}

export async function main(args: string[]): Promise<void> {
  const o = parseOptions(args);
  if (!o) return;
  const corpus = makeCorpus(o.n);
  const { hi, lo } = corpus;
  console.log(`pairs bench: n=${o.n} (${corpus.plantedFrom.length} planted near-duplicates, 1-3 bits), threads=${o.threads}`);
  console.log('note: wall-clock on a shared 2-core machine; other processes add noise, so min is the best estimate');

  const pool = startPairsPool(o.threads);
  const startup = performance.now();
  await pool.ready;
  console.log(`  thread pool startup (tsx loading in each worker): ${secs(performance.now() - startup)} s (not in the times below)`);

  const baseRss = process.memoryUsage().rss;
  for (const k of o.ks) {
    const blocks = o.blocks ?? chooseBlocks(o.n, k);
    const tables = binomial(blocks, k);
    // Large k takes seconds per run: fewer repetitions there.
    const runs = tables > 100 ? 1 : o.runs;
    const single: number[] = [];
    let result: PairList | null = null;
    for (let r = 0; r < runs; r++) {
      const t0 = performance.now();
      result = allPairs(hi, lo, k, { blocks });
      single.push(performance.now() - t0);
    }
    // Process CPU time next to wall time shows how many cores the threads really got.
    let cpu = '';
    const threaded: number[] = [];
    let threadedResult: PairList | null = null;
    let inside = '';
    for (let r = 0; r < runs; r++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      threadedResult = await pool.allPairs(hi, lo, k, blocks);
      const ms = performance.now() - t0;
      const c1 = process.cpuUsage(c0);
      if (ms <= Math.min(...threaded)) {
        inside = pool.lastThreadSeconds.map((x) => x.toFixed(3)).join(' + ');
        cpu = `${((c1.user + c1.system) / 1e6).toFixed(3)} s of CPU in ${secs(ms)} s (${((c1.user + c1.system) / 1000 / ms).toFixed(2)} cores busy)`;
      }
      threaded.push(ms);
    }
    const sorted = sortPairs(result!);
    const found = plantedFound(sorted, corpus.random, corpus.plantedFrom);
    const mem = process.memoryUsage();
    console.log(`k=${k}: blocks=${blocks} tables=${tables} pairs=${result!.count}`);
    console.log(`  single thread: ${summary(single)}`);
    console.log(`  ${o.threads} worker threads: ${summary(threaded)}; same pairs as single thread: ${samePairs(result!, threadedResult!)}`);
    console.log(`    fastest threaded run: computing ${inside} s inside the threads (the rest is messaging and merging); ${cpu}`);
    console.log(`  planted pairs found: ${found} / ${corpus.plantedFrom.length}`);
    console.log(
      `  memory after: rss ${mib(mem.rss)} (+${mib(mem.rss - baseRss)} since start of searches), heapUsed ${mib(mem.heapUsed)}, arrayBuffers ${mib(mem.arrayBuffers)}`,
    );
  }

  // Index for one-document queries (the app matches new files against a stored corpus this way).
  const k = o.ks[0];
  const t0 = performance.now();
  const index = buildIndex(hi, lo, k, o.blocks ? { blocks: o.blocks } : {});
  const buildMs = performance.now() - t0;
  const rnd = makeRandom(7);
  const queries = 100_000;
  let hits = 0;
  const t1 = performance.now();
  for (let q = 0; q < queries; q++) {
    const doc = rnd() % o.n;
    hits += queryIndex(index, hi[doc] ^ (1 << (rnd() & 31)), lo[doc], k).docs.length;
  }
  const queryMs = performance.now() - t1;
  let indexBytes = index.hi.byteLength + index.lo.byteLength;
  for (const t of index.tables) indexBytes += t.keyHi.byteLength + t.keyLo.byteLength + t.docs.byteLength;
  console.log(
    `index k=${k}: blocks=${index.blocks} tables=${index.tables.length} build ${secs(buildMs)} s, ${mib(indexBytes)}; ` +
      `${queries} queries in ${secs(queryMs)} s (${((queryMs * 1000) / queries).toFixed(1)} us each, ${hits} hits)`,
  );
  console.log(`peak rss: ${mib(process.resourceUsage().maxRSS * 1024)}`);
  await pool.close();
}
