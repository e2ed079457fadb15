/**
 * One of the pair kernel's loops on random records, repeated, for counting its instructions under
 * callgrind (never timed): the difference between two values of --repeat, over their difference, is
 * one call's count. Modes: `group` (groupByKey of n documents on a two-run key into 2^--bits groups),
 * `split` (splitGroup of groups of --size records on a --bits digit), `scan` (scanRuns over runs of
 * --size records at k = 16). Bundle it so callgrind follows one plain node process:
 *   npx esbuild bench/pair-kernel-work.ts --bundle --platform=node --format=esm --outfile=/tmp/pkw.mjs
 *   valgrind --tool=callgrind --callgrind-out-file=/dev/null node --no-liftoff /tmp/pkw.mjs split --size 4000 --bits 4 --repeat 2
 */
import { parseArgs } from 'node:util';
import { createPairScanArena } from '../src/core/index/pair-scan.ts';
import { mulberry32 } from '../tests/fixtures/mulberry32.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    n: { type: 'string', default: '1000000' },
    size: { type: 'string', default: '4000' },
    bits: { type: 'string', default: '8' },
    repeat: { type: 'string', default: '1' },
  },
});
const mode = positionals[0];
const n = Number(values.n);
const size = Number(values.size);
const bits = Number(values.bits);
const repeat = Number(values.repeat);
const arena = createPairScanArena(n, (1 << 16) + 1);
const rnd = mulberry32(1);
for (let i = 0; i < n; i++) {
  arena.hi[i] = rnd();
  arena.lo[i] = rnd();
}
const { kernel } = arena;
// Records as groupByKey leaves them (lo first), then ends for runs or groups of `size`.
kernel.groupByKey(arena.hiAt, arena.loAt, n, arena.keysAt, arena.endsAt, 1, 31, 0, arena.hiAt, 0, 0, 0, arena.hiAt, 0, 0, 0, arena.hiAt, 0, 0, 0, arena.hiAt, 0, 0, 0, arena.groupedAt, 1);
const runs = Math.floor(n / size);
// Run ends for `scan` (set before the repeats: only the kernel differs between two counts).
if (mode === 'scan') for (let g = 0; g < runs; g++) arena.ends[g] = (g + 1) * size;
let found = 0;
for (let r = 0; r < repeat; r++) {
  if (mode === 'group') {
    // A key of two runs (bits 3..10 of hi, 5..12 of lo), grouped on its leading `bits`.
    kernel.groupByKey(arena.hiAt, arena.loAt, n, arena.keysAt, arena.endsAt, 1 << bits, 32 - bits, 0,
      arena.hiAt, 21, 255, 24, arena.loAt, 19, 255, 16, arena.hiAt, 0, 0, 0, arena.hiAt, 0, 0, 0, arena.groupedAt, 1);
  } else if (mode === 'split') {
    for (let g = 0; g < runs; g++) kernel.splitGroup(arena.groupedAt, g * size, (g + 1) * size, arena.localAt, arena.localEndsAt, 1 << bits, 20, 64 - bits);
  } else if (mode === 'scan') {
    let run = 0;
    let row = 0;
    while (run < runs) {
      found += kernel.scanRuns(arena.groupedAt, arena.endsAt, run, runs, row, 16, 0, 0, arena.differAt, 0, arena.outAt, arena.capacity);
      run = kernel.nextRun();
      row = kernel.nextRow();
    }
  } else {
    throw new Error('mode: group, split or scan');
  }
}
console.log(`${mode} n=${n} size=${size} bits=${bits} repeat=${repeat} found=${found}`);
