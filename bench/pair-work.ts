/**
 * Counts (never times) the work of the all-pairs search on a fingerprint file for each block count m:
 * the comparisons the kernel makes (the sum of C(size, 2) over the runs it scans, after all-pairs'
 * split of large groups on their last key block), the runs and rows it scans, the records grouped by
 * the full passes and by the splits, beside the cost model's own counts (`searchWork`) and estimate. Grouping follows all-pairs.ts (its
 * shared passes, group digit and split rule); no pair is compared. Tables are sampled by whole passes
 * when there are more than --passes of them (the counts scaled up). With `--only A:B` just passes A..B-1
 * are counted (unscaled) and searched `--search R` times (the real all-pairs search): run under
 * callgrind with two values of R, the difference in instructions over the difference in R is the
 * instructions of those passes' search, to fit the model's rates to. Usage:
 *   npx tsx bench/pair-work.ts FILE [--k 16] [--m 17,18,19,20] [--passes 200] [--seed 1] [--only A:B --search R]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { allPairsForTables } from '../src/core/index/all-pairs.ts';
import { blockLayout, type BlockLayout } from '../src/core/index/block-layout.ts';
import { chooseBlocks, estimateCost, searchWork, type SearchWork } from '../src/core/index/search-cost.ts';
import { countSearchWork, passesOf } from '../tests/fixtures/search-work.ts';
import { mulberry32 } from '../tests/fixtures/mulberry32.ts';

/** The work of every pass (scaled up from a sample of maxPasses), or of passes [only[0], only[1]) alone, unscaled. */
function countWork(hi: Uint32Array, lo: Uint32Array, layout: BlockLayout, maxPasses: number, seed: number, only?: [number, number]): SearchWork & { tables: number; counted: number } {
  const passes = only ? passesOf(layout).slice(only[0], only[1]) : passesOf(layout);
  const rnd = mulberry32(seed);
  const chosen = only || passes.length <= maxPasses ? passes : passes.map((p) => [rnd(), p] as const).sort((a, b) => a[0] - b[0]).slice(0, maxPasses).map(([, p]) => p);
  const work = countSearchWork(hi, lo, layout, chosen);
  if (only) return { ...work, counted: work.tables };
  const scale = layout.tables.length / work.tables;
  return {
    tables: layout.tables.length,
    counted: work.tables,
    // Every pass groups all n records: counted exactly, not scaled.
    passes: passes.length,
    passRecords: passes.length * hi.length,
    splits: work.splits * scale,
    splitRecords: work.splitRecords * scale,
    comparisons: work.comparisons * scale,
    runs: work.runs * scale,
    rows: work.rows * scale,
  };
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      k: { type: 'string', default: '16' },
      m: { type: 'string' },
      passes: { type: 'string', default: '200' },
      seed: { type: 'string', default: '1' },
      only: { type: 'string' },
      search: { type: 'string', default: '0' },
    },
  });
  if (positionals.length !== 1) throw new Error(USAGE);
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
  console.log('m\ttables\tcounted\t' + COLUMNS.join('\t') + '\tmodel s');
  const only = values.only?.split(':').map(Number) as [number, number] | undefined;
  for (const m of ms) {
    const layout = blockLayout(k, m);
    const w = countWork(hi, lo, layout, Number(values.passes), Number(values.seed), only);
    if (only) {
      // The counted passes' real search, `--search` times, for callgrind: nothing else differs between two repeats.
      const passes = passesOf(layout).slice(only[0], only[1]);
      let pairs = 0;
      // One search of the passes' tables (consecutive), as one thread searches its range.
      for (let r = 0; r < Number(values.search); r++) pairs += allPairsForTables(hi, lo, layout, passes[0][0], passes[passes.length - 1][1]).count;
      console.log(`${m}\t${w.tables}\t${w.counted}\t${COLUMNS.map((c) => w[c]).join('\t')}\tpairs ${pairs}`);
      continue;
    }
    const model = searchWork(n, k, m);
    const cells = COLUMNS.map((c) => `${w[c].toExponential(3)} (${model[c].toExponential(3)})`);
    console.log(`${m}\t${w.tables}\t${w.counted}\t${cells.join('\t')}\t${(estimateCost(n, k, m) / 1e9).toFixed(2)}`);
  }
  console.log('(each count: on the file, then the model\'s for n random fingerprints: searchWork)');
}

const USAGE = 'usage: npx tsx bench/pair-work.ts FILE [--k 16] [--m 17,18,19,20] [--passes 200] [--seed 1] [--only A:B --search R]';
const COLUMNS = ['passRecords', 'splits', 'splitRecords', 'comparisons', 'runs', 'rows'] as const;

main();
