/**
 * `npm run bench -- cli-fingerprint [--runs 3] [--threads 1,2] [--mb 100] [--corpus real,generated] [--against DIR]`
 *
 * `simsift fingerprint DIR` end to end, as a user runs it: a child process per run (start-up, the
 * worker threads, reading the files and printing included), on real text first, then on the generated
 * corpus of the fingerprint bench (bench/.data/cli-generated-<mb>mb/).
 *
 * The real text (about 171 MB in about 9,100 files, written once under bench/.data/cli-real-v2/) is
 * documents nobody on the project wrote: every kernel Documentation file from linux-doc (29 MB with the
 * next), the pinned npm packages' licences, READMEs and changelogs, and the Debian documentation
 * packages of DEBIAN_DOC_PACKAGES (real-corpus.ts): Python 3.11's manual (HTML and reST, 66 MB),
 * PostgreSQL 15's manual (HTML, 16 MB), Git's manual (HTML and text, 15 MB), Perl's POD and manual
 * pages (28 MB) and glibc's ChangeLogs (17 MB). They are apt packages; as root:
 *
 *   apt-get install linux-doc python3.11-doc postgresql-doc-15 git-doc perl-doc glibc-doc
 *
 * A missing documentation package is named and the corpus is smaller (the printed size says so).
 *
 * Prints wall seconds (median of --runs) and MB/s of file bytes per thread count, the speed-up of each
 * thread count over the first, and (with GNU time at /usr/bin/time) each run's CPU seconds, user + sys
 * over all its threads, with MB per CPU-second; and the load average before and after. `--against DIR` also runs DIR/bin/simsift.js (another checkout,
 * e.g. `git archive` of an older commit with this node_modules linked in) on the same folders,
 * interleaved pass for pass with this checkout's, and prints both.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { debianDocSources, realTextSources } from './real-corpus.ts';
import { generateCorpus } from './fingerprint.bench.ts';
import { benchOptions, listOption, median, numberOption } from './harness.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');


/** Writes `docs` as files under `dir` once (a marker file says it is complete); returns the bytes on disk. */
function materialize(dir: string, docs: () => { path: string; bytes: Uint8Array }[]): number {
  const marker = join(dir, '.complete');
  if (!existsSync(marker)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    for (const doc of docs()) {
      const full = join(dir, doc.path);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, doc.bytes);
    }
    writeFileSync(marker, '');
  }
  let bytes = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name.startsWith('.')) continue;
      const full = join(d, name);
      const info = statSync(full);
      if (info.isDirectory()) walk(full);
      else bytes += info.size;
    }
  };
  walk(dir);
  return bytes;
}


/** The real-text documents: linux-doc, the npm packages' prose, the Debian documentation packages (named when missing). */
function realDocuments(): { path: string; bytes: Uint8Array }[] {
  const debian = debianDocSources();
  if (debian.missing.length > 0) {
    console.log(`  missing documentation packages (the corpus is smaller without them): ${debian.missing.join(' ')}; as root: apt-get install ${debian.missing.join(' ')}`);
  }
  return [...realTextSources(), ...debian.docs];
}

export async function main(args: string[]): Promise<void> {
  const o = benchOptions(
    args,
    { runs: { type: 'string' }, threads: { type: 'string' }, mb: { type: 'string' }, corpus: { type: 'string' }, against: { type: 'string' } },
    'usage: npm run bench -- cli-fingerprint [--runs N] [--threads 1,2] [--mb 100] [--corpus real,generated] [--against DIR]',
  );
  if (!o) return;
  const runs = numberOption(o.runs, 3, 'runs');
  const threads = listOption(o.threads, '1,2').map(Number);
  const mb = numberOption(o.mb, 100, 'mb');
  const only = listOption(o.corpus, 'real,generated');
  const against = o.against ?? '';
  const corpora = [
    { label: 'real text', dir: join(root, 'bench/.data/cli-real-v2'), docs: realDocuments },
    {
      label: 'generated',
      dir: join(root, `bench/.data/cli-generated-${mb}mb`),
      docs: () => generateCorpus(mb * 1e6, 1).docs.map((text, i) => ({ path: `d${Math.floor(i / 500)}/${i}.txt`, bytes: new TextEncoder().encode(text) })),
    },
  ].filter((c) => only.includes(c.label.split(' ')[0]));
  const builds = [{ label: against ? 'this checkout' : '', bin: join(root, 'bin/simsift.js') }];
  if (against) builds.push({ label: against, bin: join(against, 'bin/simsift.js') });
  // GNU time (Debian's `time` package) gives each run's CPU seconds, which say more than wall seconds on a shared machine.
  const timer = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
  const cpuFile = join(tmpdir(), `simsift-bench-cpu-${process.pid}`);
  console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} (${cpus().length} cores)${timer ? '' : '; no /usr/bin/time, so no CPU seconds (apt-get install time)'}`);
  for (const corpus of corpora) {
    const bytes = materialize(corpus.dir, corpus.docs);
    const files = readdirSync(corpus.dir, { recursive: true }).length;
    console.log(`${corpus.label}: ${corpus.dir} (${(bytes / 1e6).toFixed(1)} MB, about ${files} entries)`);
    for (const build of builds) execFileSync(process.execPath, [build.bin, '--help'], { stdio: 'ignore' }); // any first-run build
    const base = new Map<string, number>();
    for (const t of threads) {
      const seconds = builds.map(() => [] as number[]);
      const cpu = builds.map(() => [] as number[]);
      const lines = builds.map(() => 0);
      for (let r = 0; r < runs; r++) {
        builds.forEach((build, b) => {
          const command = [process.execPath, build.bin, 'fingerprint', '--threads', String(t), corpus.dir];
          const t0 = performance.now();
          const out = timer
            ? execFileSync(timer, ['-f', '%U %S', '-o', cpuFile, ...command], { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] })
            : execFileSync(command[0], command.slice(1), { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
          seconds[b].push((performance.now() - t0) / 1000);
          if (timer) cpu[b].push(readFileSync(cpuFile, 'utf8').trim().split(/\s+/).map(Number).reduce((x, y) => x + y, 0));
          lines[b] = out.toString().split('\n').length - 1;
        });
      }
      builds.forEach((build, b) => {
        const s = median(seconds[b]);
        if (t === threads[0]) base.set(build.bin, s);
        const speedup = t === threads[0] ? '' : `, ${(base.get(build.bin)! / s).toFixed(2)}x ${threads[0]} thread${threads[0] === 1 ? '' : 's'}`;
        const c = cpu[b].length > 0 ? median(cpu[b]) : 0;
        const cpuNote = c > 0 ? `; CPU ${c.toFixed(2)} s (user+sys, all threads; runs ${cpu[b].map((x) => x.toFixed(2)).join(', ')}) = ${(bytes / 1e6 / c).toFixed(1)} MB per CPU-second` : '';
        console.log(
          `  ${build.label ? `${build.label}: ` : ''}--threads ${t}: ${s.toFixed(2)} s (runs ${seconds[b].map((x) => x.toFixed(2)).join(', ')}), ${(bytes / 1e6 / s).toFixed(1)} MB/s, ${lines[b]} lines${speedup}${cpuNote}`,
        );
      });
    }
  }
  console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')} at the end`);
}
