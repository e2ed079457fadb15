// Issue #41: the Dask job (dask/simsift_pairs.py, run by `npm run dask`) gives the pairs `simsift pairs`
// gives on the same fingerprints, on a real local cluster of two worker processes, at k = 3 and at a
// larger k, with rows without a fingerprint keeping their numbers. It needs Debian's python3-dask,
// python3-distributed and python3-pandas in /usr/bin/python3 (.ci/run installs them); without them it is
// skipped, saying why.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASK_PYTHON } from '../../../dask/run.ts';
import { mulberry32 } from '../../fixtures/mulberry32.ts';
import { runNode } from '../run-node.ts';

/** Why the job cannot run here, or null when Debian's Dask packages load. */
function missingDask(): string | null {
  try {
    execFileSync(DASK_PYTHON, ['-c', 'import dask.dataframe, distributed, pandas'], { stdio: 'pipe' });
    return null;
  } catch (error) {
    const detail = (error as { stderr?: Buffer }).stderr?.toString().trim().split('\n').pop() ?? String(error);
    return `${DASK_PYTHON} cannot load Dask (${detail}): install Debian's python3-distributed python3-dask python3-pandas (.ci/run does, as root)`;
  }
}
const MISSING = missingDask();
if (MISSING) console.warn(`dask-pairs.test skipped: ${MISSING}`);

/**
 * `simsift fingerprint`-style text: 3,000 random fingerprints, 300 of them copied with 0..10 bits
 * flipped (near pairs at every distance the tests ask about), and every 50th row without one (`-`).
 */
function fingerprintText(seed: number): string {
  const next = mulberry32(seed);
  const hi: number[] = [];
  const lo: number[] = [];
  const lines: string[] = [];
  for (let r = 0; r < 3_000; r++) {
    if (r % 50 === 49) {
      lines.push(`-  skipped/${r}.bin`);
      continue;
    }
    let h = next();
    let l = next();
    if (r >= 2_700 && hi.length > 0) {
      const from = next() % hi.length;
      h = hi[from]!;
      l = lo[from]!;
      for (let f = next() % 11; f > 0; f--) {
        const bit = next() % 64;
        if (bit < 32) h = (h ^ (1 << bit)) >>> 0;
        else l = (l ^ (1 << (bit - 32))) >>> 0;
      }
    }
    hi.push(h);
    lo.push(l);
    lines.push(`${h.toString(16).padStart(8, '0')}${l.toString(16).padStart(8, '0')}  docs/${r}.txt`);
  }
  return `${lines.join('\n')}\n`;
}

let dir: string;
let fp: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'simsift-dask-'));
  fp = join(dir, 'fp.txt');
  await writeFile(fp, fingerprintText(41));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const env = { PATH: process.env.PATH, HOME: process.env.HOME };
const simsiftPairs = (args: string[]) => runNode([resolve('bin/simsift.js'), 'pairs', fp, ...args], { env, hangMs: 120_000 });
const daskPairs = (args: string[]) => runNode(['--import', 'tsx', resolve('dask/run.ts'), fp, ...args], { env, hangMs: 300_000 });

describe.skipIf(MISSING !== null)('the Dask job equals simsift pairs (#41)', () => {
  for (const [k, blocks, paths] of [
    [3, 5, true],
    [8, 10, false],
  ] as const) {
    it(`k = ${k} (${blocks} blocks), ${paths ? 'with' : 'without'} paths, on a local cluster of two workers`, async () => {
      const flags = ['--k', String(k), '--blocks', String(blocks), ...(paths ? ['--paths'] : [])];
      const expected = await simsiftPairs(flags);
      expect(expected.code, expected.err).toBe(0);
      const got = await daskPairs([...flags, '--workers', '2']);
      expect(got.code, got.err).toBe(0);
      expect(got.err).toMatch(/simsift dask: 2,?940 fingerprints, k=\d+, \d+ tables/);
      // The last line times each phase (what `npm run bench -- dask` reads) and gives each worker's peak RSS.
      const phases = ['read', 'cluster', 'key', 'shuffle', 'pair', 'merge', 'close', 'write'].map((p) => `${p}_seconds=[\\d.]+`).join(' ');
      expect(got.err).toMatch(new RegExp(`simsift dask: pairs=\\d+ ${phases} client_maxrss_kb=\\d+ worker_maxrss_kb=\\d+,\\d+\n`));
      // Near pairs were planted at every distance up to k: the comparison is not of two empty lists.
      expect(expected.out.split('\n').length).toBeGreaterThan(20);
      expect(got.out).toBe(expected.out);
    }, 600_000);
  }
});
