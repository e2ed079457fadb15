/**
 * Counts (never times) the work of the all-pairs search on a fingerprint file for each block count m:
 * the comparisons the kernel makes (the sum of C(size, 2) over the runs it scans, after all-pairs'
 * split of large groups on their last key block), the records grouped by the full passes and by the
 * splits, beside the cost model's own figures (`estimateCost`). Grouping follows all-pairs.ts (its
 * shared passes, group digit and split rule); no pair is compared. Tables are sampled by whole passes
 * when there are more than --passes of them (the counts scaled up). Usage:
 *   npx tsx bench/pair-work.ts FILE [--k 16] [--m 17,18,19,20] [--passes 200] [--seed 1]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { MAX_GROUP_BITS, SMALL_GROUP, sharedPassEnd } from '../src/core/index/all-pairs.ts';
import { blockLayout, chooseBlocks, estimateCost, extractKeys, type BlockLayout } from '../src/core/index/block-layout.ts';
import { mulberry32 } from '../tests/fixtures/mulberry32.ts';

interface Work {
  tables: number;
  counted: number;
  comparisons: number;
  passRecords: number;
  splitRecords: number;
}

/** Block j's value of fingerprint (h, l). */
function blockValue(layout: BlockLayout, j: number, h: number, l: number): number {
  const s = layout.start[j];
  const size = layout.size[j];
  const mask = (1 << size) - 1;
  if (s + size <= 32) return (h >>> (32 - s - size)) & mask;
  if (s >= 32) return (l >>> (64 - s - size)) & mask;
  const loLen = s + size - 32;
  return ((h & ((1 << (32 - s)) - 1)) << loLen) | (l >>> (32 - loLen));
}

function countWork(hi: Uint32Array, lo: Uint32Array, k: number, m: number, maxPasses: number, seed: number): Work {
  const n = hi.length;
  const layout = blockLayout(k, m);
  const passes: Array<[number, number]> = [];
  for (let t = 0; t < layout.tables.length; t = sharedPassEnd(layout, t)) passes.push([t, sharedPassEnd(layout, t)]);
  const rnd = mulberry32(seed);
  const chosen = passes.length <= maxPasses ? passes : passes.map((p) => [rnd(), p] as const).sort((a, b) => a[0] - b[0]).slice(0, maxPasses).map(([, p]) => p);
  const keys = new Uint32Array(n);
  const group = new Int32Array(n);
  const order = new Int32Array(n);
  const work: Work = { tables: layout.tables.length, counted: 0, comparisons: 0, passRecords: 0, splitRecords: 0 };
  for (const [t0, t1] of chosen) {
    const first = layout.tables[t0];
    const last = 31 - Math.clz32(first.keyMask);
    const oneBlock = (first.keyMask & ~(1 << last)) === 0;
    const groupBits = Math.min(oneBlock ? first.bits : first.bits - layout.size[last], MAX_GROUP_BITS);
    const groups = 2 ** groupBits;
    extractKeys(first, hi, lo, n, keys, null);
    const start = new Int32Array(groups + 1);
    for (let i = 0; i < n; i++) start[(group[i] = keys[i] >>> (32 - groupBits)) + 1]++;
    for (let g = 0; g < groups; g++) start[g + 1] += start[g];
    work.passRecords += n;
    if (oneBlock) {
      // A one-block key: each table is its own pass, its groups scanned whole.
      for (let g = 0; g < groups; g++) work.comparisons += pairsOf(start[g + 1] - start[g]);
      work.counted++;
      continue;
    }
    const fill = start.slice();
    for (let i = 0; i < n; i++) order[fill[group[i]]++] = i;
    for (let t = t0; t < t1; t++) {
      const j = 31 - Math.clz32(layout.tables[t].keyMask);
      const size = layout.size[j];
      for (let g = 0; g < groups; g++) {
        const count = start[g + 1] - start[g];
        if (count <= SMALL_GROUP) {
          work.comparisons += pairsOf(count);
          continue;
        }
        work.splitRecords += count;
        const digitBits = Math.min(size, 32 - Math.clz32(count), MAX_GROUP_BITS);
        const sub = new Int32Array(1 << digitBits);
        for (let q = start[g]; q < start[g + 1]; q++) sub[blockValue(layout, j, hi[order[q]], lo[order[q]]) >>> (size - digitBits)]++;
        for (const c of sub) work.comparisons += pairsOf(c);
      }
      work.counted++;
    }
  }
  const scale = work.tables / work.counted;
  // Every pass groups all n records: counted exactly, not scaled.
  return { ...work, comparisons: work.comparisons * scale, passRecords: passes.length * n, splitRecords: work.splitRecords * scale };
}

function pairsOf(count: number): number {
  return (count * (count - 1)) / 2;
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { k: { type: 'string', default: '16' }, m: { type: 'string' }, passes: { type: 'string', default: '200' }, seed: { type: 'string', default: '1' } },
  });
  if (positionals.length !== 1) throw new Error('usage: npx tsx bench/pair-work.ts FILE [--k 16] [--m 17,18,19,20] [--passes 200] [--seed 1]');
  const lines = readFileSync(positionals[0], 'utf8').split('\n').filter((line) => /^[0-9a-f]{16}/.test(line));
  const n = lines.length;
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  lines.forEach((line, i) => {
    hi[i] = parseInt(line.slice(0, 8), 16);
    lo[i] = parseInt(line.slice(8, 16), 16);
  });
  const k = Number(values.k);
  const chosen = chooseBlocks(n, k);
  const ms = values.m ? values.m.split(',').map(Number) : [chosen - 1, chosen, chosen + 1];
  console.log(`n=${n} k=${k} chosen m=${chosen}`);
  console.log('m\ttables\tcounted\tcomparisons\tpass records\tsplit records\tmodel comparisons\tmodel records\tmodel s');
  for (const m of ms) {
    const w = countWork(hi, lo, k, m, Number(values.passes), Number(values.seed));
    const keyBits = Math.floor(((m - k) * 64) / m);
    const modelComparisons = (w.tables * n * n) / 2 ** (Math.min(keyBits, MAX_GROUP_BITS) + 1);
    const counts = [w.comparisons, w.passRecords, w.splitRecords, modelComparisons, w.tables * n].map((x) => x.toExponential(3));
    console.log(`${m}\t${w.tables}\t${w.counted}\t${counts.join('\t')}\t${(estimateCost(n, k, m) / 1e9).toFixed(1)}`);
  }
}

main();
