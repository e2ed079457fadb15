/**
 * `npm run bench -- cli-fingerprint [--runs 3] [--threads 1,2] [--mb 100]`
 *
 * `simsift fingerprint DIR` end to end, as a user runs it: a child process per run (start-up, the
 * worker threads, reading the files and printing included), on real text first (every kernel
 * Documentation file from linux-doc and the pinned npm packages' prose files, written once as files
 * under bench/.data/cli-real/), then on the generated corpus of the fingerprint bench (bench/.data/cli-generated/).
 * Prints wall seconds (median of --runs) and MB/s of file bytes per thread count, and the speed-up
 * of each thread count over one.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { realTextSources } from './real-corpus.ts';
import { generateCorpus } from './fingerprint.bench.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function option(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
}

/** Writes `docs` as files under `dir` once (a marker file says it is complete); returns the bytes on disk. */
function materialize(dir: string, docs: () => { path: string; bytes: Uint8Array }[]): number {
  const marker = join(dir, '.complete');
  if (!existsSync(marker)) {
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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export async function main(args: string[]): Promise<void> {
  const runs = Number(option(args, 'runs', '3'));
  const threads = option(args, 'threads', '1,2').split(',').map(Number);
  const mb = Number(option(args, 'mb', '100'));
  const corpora = [
    { label: 'real text', dir: join(root, 'bench/.data/cli-real'), docs: () => realTextSources() },
    {
      label: 'generated',
      dir: join(root, `bench/.data/cli-generated-${mb}mb`),
      docs: () => generateCorpus(mb * 1e6, 1).docs.map((text, i) => ({ path: `d${Math.floor(i / 500)}/${i}.txt`, bytes: new TextEncoder().encode(text) })),
    },
  ];
  const bin = join(root, 'bin/simsift.js');
  for (const corpus of corpora) {
    const bytes = materialize(corpus.dir, corpus.docs);
    const files = readdirSync(corpus.dir, { recursive: true }).length;
    console.log(`${corpus.label}: ${corpus.dir} (${(bytes / 1e6).toFixed(1)} MB, about ${files} entries)`);
    const base: Record<number, number> = {};
    for (const t of threads) {
      const seconds: number[] = [];
      let lines = 0;
      for (let r = 0; r < runs; r++) {
        const t0 = performance.now();
        const out = execFileSync(process.execPath, [bin, 'fingerprint', '--threads', String(t), corpus.dir], { maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
        seconds.push((performance.now() - t0) / 1000);
        lines = out.toString().split('\n').length - 1;
      }
      const s = median(seconds);
      base[t] = s;
      const speedup = t === threads[0] ? '' : `, ${(base[threads[0]] / s).toFixed(2)}x ${threads[0]} thread${threads[0] === 1 ? '' : 's'}`;
      console.log(
        `  --threads ${t}: ${s.toFixed(2)} s (runs ${seconds.map((x) => x.toFixed(2)).join(', ')}), ${(bytes / 1e6 / s).toFixed(1)} MB/s, ${lines} lines${speedup}`,
      );
    }
  }
}
