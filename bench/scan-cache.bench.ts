/**
 * `npm run bench -- scan-cache [--files 100000] [--mb 1000] [--edit 10] [--seed 1] [--profile]`
 *
 * The second scan with `simsift scan --cache`, as a user runs it: a child process per run, on the
 * real-text corpus of the ingest bench (real-corpus.ts `realCorpusOnDisk`, built once under
 * bench/.data/). First `simsift scan DIR --cache C` with no cache (every file read), then `--edit` files
 * get a line appended, then the same command again (the cache stands for the rest), then a scan
 * without the cache of the same folder: its CSV must equal the cached scan's, byte for byte. Prints
 * the three wall times, the second over the first, and each run's CPU seconds (user + sys of the child
 * and its threads, from getrusage). `--profile` writes a V8 CPU profile of the second run's main thread
 * (bench/.data/scan-cache-*.cpuprofile) and prints its functions with the most self time.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchOptions, numberOption, report, JSON_OPTION } from './harness.ts';
import { realCorpusOnDisk } from './real-corpus.ts';

const here = dirname(fileURLToPath(import.meta.url));
const SIMSIFT = join(here, '..', 'bin', 'simsift.js');
const USAGE = 'usage: npm run bench -- scan-cache [--files 100000] [--mb 1000] [--edit 10] [--seed 1] [--profile] [--json]';
const OPTIONS = { files: { type: 'string' }, mb: { type: 'string' }, edit: { type: 'string' }, seed: { type: 'string' }, profile: { type: 'boolean' }, ...JSON_OPTION } as const;

/** One `simsift scan` child: wall seconds, CPU seconds of the child's tree, its stderr. */
function scan(args: string[], nodeArgs: string[] = []): { seconds: number; cpu: number; stderr: string } {
  const t0 = performance.now();
  const child = spawnSync(process.execPath, [...nodeArgs, SIMSIFT, 'scan', ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const seconds = (performance.now() - t0) / 1000;
  if (child.status !== 0) throw new Error(`simsift scan exited with ${child.status}: ${child.stderr}`);
  return { seconds, cpu: childrenCpu(), stderr: child.stderr.trim() };
}

let lastChildrenCpu = 0;
/** CPU seconds (user + sys) of the children that ended since the last call (RUSAGE_CHILDREN through /proc/self/stat's cutime and cstime). */
function childrenCpu(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // Fields after the command: state is [0]; cutime and cstime are the 16th and 17th of stat, [13] and [14] here.
  const ticks = Number(fields[13]) + Number(fields[14]);
  const total = ticks / 100;
  const spent = total - lastChildrenCpu;
  lastChildrenCpu = total;
  return spent;
}

/** Waits out the cache's racy window (cached-scan.ts RACY_MS), as a person's next scan comes later than 2 s. */
const pastRacyWindow = () => new Promise((resolve) => setTimeout(resolve, 2100));

/** The functions with the most self time in a V8 CPU profile. */
function topSelfTime(file: string, count: number): string[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[]; samples: number[]; timeDeltas: number[] };
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const byName = new Map<string, number>();
  for (const node of profile.nodes) {
    const f = node.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    byName.set(name, (byName.get(name) ?? 0) + (self.get(node.id) ?? 0));
  }
  return [...byName].sort((a, b) => b[1] - a[1]).slice(0, count).map(([name, us]) => `${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`);
}

export async function main(argv: string[]): Promise<void> {
  const values = benchOptions(argv, OPTIONS, USAGE);
  if (!values) return;
  const files = numberOption(values.files, 100_000, 'files');
  const mb = numberOption(values.mb, files / 100, 'mb');
  const edits = numberOption(values.edit, 10, 'edit');
  const seed = numberOption(values.seed, 1, 'seed');
  const corpus = realCorpusOnDisk(files, Math.round((mb * 1e6) / files), seed);
  const work = mkdtempSync(join(tmpdir(), 'simsift-scan-cache-bench-'));
  const cache = join(work, 'scan.cache');
  // The corpus is kept for the next run: the edited files are cut back to their size at the end.
  const edited: Array<[string, number]> = [];
  try {
    childrenCpu();
    const names = readdirSync(corpus.dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name))
      .sort();
    // Files older than the cache's racy window (2 s), as a folder not being written to is (utimes sets
    // ctime to now, which is waited out).
    const old = new Date(Date.now() - 3_600_000);
    for (const name of names) utimesSync(name, old, old);
    await pastRacyWindow();
    const first = scan([corpus.dir, '--out', join(work, 'first.csv'), '--cache', cache]);
    console.log(`first scan (no cache, every file read): ${first.seconds.toFixed(2)} s wall, ${first.cpu.toFixed(2)} CPU-s`);
    await pastRacyWindow();
    const step = Math.max(1, Math.floor(names.length / edits));
    for (let i = 0; i < edits; i++) {
      const name = names[i * step]!;
      edited.push([name, statSync(name).size]);
      appendFileSync(name, `\nA line added by the scan-cache bench at ${new Date().toISOString()}.\n`);
    }
    const profileDir = join(here, '.data');
    const nodeArgs = values.profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-name=scan-cache-second.cpuprofile'] : [];
    const second = scan([corpus.dir, '--out', join(work, 'second.csv'), '--cache', cache], nodeArgs);
    console.log(`second scan (cache, ${edits} files edited): ${second.seconds.toFixed(2)} s wall, ${second.cpu.toFixed(2)} CPU-s`);
    console.log(second.stderr.split('\n').filter((line) => /cache:|candidate/.test(line)).join('\n'));
    const fresh = scan([corpus.dir, '--out', join(work, 'fresh.csv')]);
    console.log(`fresh scan (no cache): ${fresh.seconds.toFixed(2)} s wall, ${fresh.cpu.toFixed(2)} CPU-s`);
    const same = readFileSync(join(work, 'second.csv')).equals(readFileSync(join(work, 'fresh.csv')));
    const ratio = second.seconds / first.seconds;
    console.log(`second / first: ${ratio.toFixed(3)} (target <= 0.1); CSV of the cached scan ${same ? 'equals' : 'DIFFERS FROM'} the fresh scan's, byte for byte`);
    if (values.profile) {
      console.log('second scan, main thread, most self time:');
      for (const line of topSelfTime(join(profileDir, 'scan-cache-second.cpuprofile'), 15)) console.log(line);
    }
    report('scan-cache', { files: corpus.files, bytes: corpus.bytes, edits, firstSeconds: first.seconds, secondSeconds: second.seconds, freshSeconds: fresh.seconds, firstCpu: first.cpu, secondCpu: second.cpu, ratio, sameCsv: same }, values);
    if (!same) process.exitCode = 1;
  } finally {
    for (const [name, size] of edited) truncateSync(name, size);
    rmSync(work, { recursive: true, force: true });
  }
}
