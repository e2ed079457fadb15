/**
 * `npm run bench -- pairs-cli [--n 1000000] [--k 3] [--runs 3] [--blocks-py 6] [--threads T]`: the whole
 * `simsift pairs` command (a child process: start, read, search, sort, write the pairs to a file; `--threads`
 * passed on, else the command's own choice) against simhash-py's
 * `find_all` on the same fingerprints, interleaved run by run, with the load average beside each run.
 * simhash-py is imported by python3 as `simhash`, from bench/.data/simhash-py when that holds a built copy
 * (`pip install simhash-py` where PyPI is reachable; else build seomoz/simhash-py with its simhash-cpp
 * submodule: `python3 setup.py build_ext --inplace` with Cython 0.29, Debian's cython3).
 * The simsift child runs without NODE_EXTRA_CA_CERTS (printed): with it, every Node start reads that CA
 * bundle, a cost of this machine's setup that a user's does not have and that `pairs` never uses; python
 * keeps the environment as it is.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchOptions, median, numberOption } from './harness.ts';
import { plantedFingerprintFile } from './planted-fingerprints.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const data = join(root, 'bench', '.data');

const FIND_ALL = `
import sys, time, simhash
hashes = [int(l, 16) for l in open(sys.argv[1]) if l.strip()]
t = time.perf_counter()
r = simhash.find_all(hashes, int(sys.argv[3]), int(sys.argv[2]))
print(f"{time.perf_counter() - t:.4f} {len(r)}")
`;

export async function main(args: string[]): Promise<void> {
  const v = benchOptions(
    args,
    { n: { type: 'string' }, k: { type: 'string' }, runs: { type: 'string' }, 'blocks-py': { type: 'string' }, threads: { type: 'string' } },
    'usage: npm run bench -- pairs-cli [--n 1000000] [--k 3] [--runs 3] [--blocks-py 6] [--threads T]',
  );
  if (!v) return;
  const o = { n: numberOption(v.n, 1_000_000, 'n'), k: numberOption(v.k, 3, 'k'), runs: numberOption(v.runs, 3, 'runs'), blocksPy: numberOption(v['blocks-py'], 6, 'blocks-py'), threads: v.threads === undefined ? undefined : numberOption(v.threads, 1, 'threads') };
  const file = plantedFingerprintFile(o.n);
  // Node loads NODE_EXTRA_CA_CERTS at every start, whether or not the program makes a TLS connection.
  const { NODE_EXTRA_CA_CERTS: extraCaCerts, ...ourEnv } = process.env;
  const env = { ...process.env, PYTHONPATH: [join(data, 'simhash-py'), process.env.PYTHONPATH].filter(Boolean).join(':') };
  const havePy = spawnSync('python3', ['-c', 'import simhash; simhash.find_all'], { env }).status === 0;
  if (!havePy) console.log('simhash-py not found (see this file\'s header): simsift pairs alone');
  if (extraCaCerts !== undefined) console.log(`simsift pairs runs without NODE_EXTRA_CA_CERTS (${extraCaCerts}): Node would read that CA bundle at its start, which a user's machine does not have set and pairs never uses; find_all keeps the environment`);
  console.log(`pairs-cli bench: n=${o.n} k=${o.k}${o.threads === undefined ? '' : ` --threads ${o.threads}`}, simhash-py find_all with ${o.blocksPy} blocks; 2-core shared machine`);
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let r = 0; r < o.runs; r++) {
    const load = loadavg()[0].toFixed(1);
    const t0 = performance.now();
    const result = spawnSync(process.execPath, [join(root, 'bin', 'simsift.js'), 'pairs', file, '--k', String(o.k), ...(o.threads === undefined ? [] : ['--threads', String(o.threads)]), '--out', join(data, 'pairs-cli-out.txt')], { encoding: 'utf8', env: ourEnv });
    const wall = (performance.now() - t0) / 1000;
    if (result.status !== 0) throw new Error(`simsift pairs failed: ${result.stderr}`);
    ours.push(wall);
    let line = `run ${r + 1} (load ${load}): simsift pairs ${wall.toFixed(3)} s whole command [${result.stderr.trim().replace(/^simsift pairs: /, '')}]`;
    if (havePy) {
      const [seconds, count] = execFileSync('python3', ['-c', FIND_ALL, file, String(o.k), String(o.blocksPy)], { env, encoding: 'utf8' }).trim().split(' ');
      theirs.push(Number(seconds));
      line += `; find_all ${Number(seconds).toFixed(3)} s (${count} pairs: distinct fingerprint values)`;
    }
    console.log(line);
  }
  console.log(`median: simsift pairs ${median(ours).toFixed(3)} s whole command` +
    (havePy ? `; find_all ${median(theirs).toFixed(3)} s (search alone); ratio ${(median(theirs) / median(ours)).toFixed(1)}x` : ''));
}
