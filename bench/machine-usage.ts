/**
 * What the browser costs the machine (#38's table): CPU seconds (user + system) of every process the
 * bench started (Chromium's browser, renderers, GPU and utility processes), summed from each process's
 * own utime + stime between samples (a reaped child's time also lands in its parent's cutime: counting
 * that would count a closed page's renderer again in whatever runs when it is reaped; a process loses
 * at most its last 250 ms when it exits), and resident memory per process kind, read
 * from /proc every 250 ms. Times are epoch milliseconds, so a page's `performance.timeOrigin + t` maps
 * onto them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const TICKS_PER_SECOND = 100;
const PAGE_BYTES = 4096;

interface Proc {
  pid: number;
  ppid: number;
  /** utime + stime, in seconds (its own threads; not its reaped children). */
  cpu: number;
  rssBytes: number;
}

function readProc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After "pid (comm) ": state [0], ppid [1], utime [11], stime [12], cutime [13], cstime [14], rss pages [21].
    const cpu = (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND;
    return { pid, ppid: Number(f[1]), cpu, rssBytes: Number(f[21]) * PAGE_BYTES };
  } catch {
    return null; // exited between the listing and the read
  }
}

/** Chromium's name for a process's role ("--type=renderer"); the browser process has none. */
function kindOf(pid: number): string {
  try {
    // Chromium rewrites its children's command lines into one string (setproctitle): matched, not split.
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const type = /--type=([\w-]+)/.exec(cmdline);
    return type ? type[1]! : cmdline.includes('chrom') ? 'browser' : 'other';
  } catch {
    return 'gone';
  }
}

/** The live descendants of `root` that are Chromium's (the bench's own tools, esbuild say, are left out). */
function browserTree(root: number): Proc[] {
  const all = readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(Number).map(readProc).filter((p): p is Proc => p !== null);
  const children = new Map<number, Proc[]>();
  for (const p of all) {
    const siblings = children.get(p.ppid);
    if (siblings) siblings.push(p);
    else children.set(p.ppid, [p]);
  }
  const out: Proc[] = [];
  const walk = (pid: number) => {
    for (const c of children.get(pid) ?? []) {
      out.push(c);
      walk(c.pid);
    }
  };
  walk(root);
  return out.filter((p) => kindOf(p.pid) !== 'other');
}

interface Sample {
  at: number;
  cpu: number;
  /** The same CPU split by process kind (browser, renderer, gpu-process, utility...). */
  byKind: Map<string, number>;
  /** The same CPU split by process kind and thread name ("renderer DedicatedWorker"): which thread pays. */
  byThread: Map<string, number>;
}

/** Each thread's name and CPU seconds (utime + stime) of process `pid`, by thread id. */
function threadsOf(pid: number): Array<{ tid: number; name: string; cpu: number }> {
  const out: Array<{ tid: number; name: string; cpu: number }> = [];
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const t of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+$/, '').trim();
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({ tid: Number(t), name, cpu: (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND });
    } catch {
      // exited between the listing and the read
    }
  }
  return out;
}

/** Samples the browser processes under this one until `stop()`. */
export function watchBrowserUsage(intervalMs = 250) {
  const samples: Sample[] = [];
  const peakByKind = new Map<string, number>();
  // Running sums of every process's CPU since the watch began, from per-process deltas.
  let total = 0;
  const totalByKind = new Map<string, number>();
  const totalByThread = new Map<string, number>();
  const lastCpu = new Map<number, number>();
  const lastThreadCpu = new Map<number, number>();
  const sample = () => {
    const tree = browserTree(process.pid);
    const byKind = new Map<string, number>();
    for (const p of tree) {
      const kind = kindOf(p.pid);
      byKind.set(kind, (byKind.get(kind) ?? 0) + p.rssBytes);
      // A pid first seen counts from 0 only when it started after the watch (the first sample sets the base).
      const delta = p.cpu - (lastCpu.get(p.pid) ?? (samples.length === 0 ? p.cpu : 0));
      lastCpu.set(p.pid, p.cpu);
      total += delta;
      totalByKind.set(kind, (totalByKind.get(kind) ?? 0) + delta);
      for (const t of threadsOf(p.pid)) {
        const d = t.cpu - (lastThreadCpu.get(t.tid) ?? (samples.length === 0 ? t.cpu : 0));
        lastThreadCpu.set(t.tid, t.cpu);
        const key = `${kind} ${t.name}`;
        totalByThread.set(key, (totalByThread.get(key) ?? 0) + d);
      }
    }
    for (const [kind, bytes] of byKind) peakByKind.set(kind, Math.max(peakByKind.get(kind) ?? 0, bytes));
    samples.push({ at: performance.timeOrigin + performance.now(), cpu: total, byKind: new Map(totalByKind), byThread: new Map(totalByThread) });
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    /** CPU seconds the browser spent between two epoch times (linear between samples). */
    cpuBetween(fromEpochMs: number, toEpochMs: number): number {
      return cpuAt(samples, toEpochMs) - cpuAt(samples, fromEpochMs);
    },
    /** The same split by process kind (a kind whose processes exited and were reaped moves to its parent's). */
    cpuByKindBetween(fromEpochMs: number, toEpochMs: number): Map<string, number> {
      const a = sampleAt(samples, fromEpochMs);
      const b = sampleAt(samples, toEpochMs);
      const out = new Map<string, number>();
      for (const [kind, cpu] of b.byKind) out.set(kind, cpu - (a.byKind.get(kind) ?? 0));
      return out;
    },
    /** The same split by process kind and thread name (a thread loses at most its last interval when it exits). */
    cpuByThreadBetween(fromEpochMs: number, toEpochMs: number): Map<string, number> {
      const a = sampleAt(samples, fromEpochMs);
      const b = sampleAt(samples, toEpochMs);
      const out = new Map<string, number>();
      for (const [key, cpu] of b.byThread) out.set(key, cpu - (a.byThread.get(key) ?? 0));
      return out;
    },
    /** Peak resident bytes per process kind since the last reset. */
    peaks: () => new Map(peakByKind),
    resetPeaks: () => peakByKind.clear(),
    sampleNow: sample,
    stop: () => clearInterval(timer),
  };
}

/** The first sample at or after `at` (the last when none). */
function sampleAt(samples: readonly Sample[], at: number): Sample {
  return samples.find((s) => s.at >= at) ?? samples.at(-1)!;
}

function cpuAt(samples: readonly Sample[], at: number): number {
  let i = samples.findIndex((s) => s.at >= at);
  if (i < 0) return samples.at(-1)!.cpu;
  if (i === 0) return samples[0]!.cpu;
  const a = samples[i - 1]!;
  const b = samples[i]!;
  return a.cpu + ((b.cpu - a.cpu) * (at - a.at)) / Math.max(1, b.at - a.at);
}

/** CPU seconds and wall seconds of `simsift fingerprint DIR` (the CLI's fingerprinting alone, its output thrown away). */
export function cliFingerprintCost(root: string, dir: string): { seconds: number; cpu: number } {
  const before = childrenCpu();
  const t0 = performance.now();
  const child = spawnSync(process.execPath, [`${root}/bin/simsift.js`, 'fingerprint', dir, '--out', '/dev/null'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = (performance.now() - t0) / 1000;
  if (child.status !== 0) throw new Error(`simsift fingerprint exited with ${child.status}: ${child.stderr}`);
  return { seconds, cpu: childrenCpu() - before };
}

/** CPU seconds of this process's reaped children (cutime + cstime of /proc/self/stat). */
function childrenCpu(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[13]) + Number(f[14])) / TICKS_PER_SECOND;
}
