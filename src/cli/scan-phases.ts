/**
 * Owns `simsift scan`'s "where the time went" line (#38): each phase's wall clock, from the session's
 * phase measures (scan/phase-timing.ts) and the command's own steps, and the CPU every thread of the
 * process spent in it, from a clock that samples `process.cpuUsage()` while the scan runs.
 */
import { PHASE_PREFIX } from '../scan/phase-timing.ts';

/** Process CPU (every thread) by wall-clock time, for phases known only by their start and end. */
export interface CpuClock {
  /** Takes a sample now (at a phase boundary the command itself knows). */
  mark(): void;
  /** CPU seconds spent by the whole process between two performance.now() times. */
  between(start: number, end: number): number;
  stop(): void;
}

/** The process's user + system CPU, in seconds. */
function processCpu(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}

/**
 * Samples the CPU every `everyMs` (a timer that never keeps the process alive). Between two samples
 * the CPU is taken to grow evenly: a phase boundary that falls while this thread is busy (no timer
 * runs) is placed by interpolation, so the phases' CPU adds up to the scan's.
 */
export function startCpuClock(everyMs = 25, read: () => number = processCpu, now: () => number = () => performance.now()): CpuClock {
  const times: number[] = [];
  const cpus: number[] = [];
  const mark = () => {
    const t = now();
    // Kept in time order (a mark and a timer in the same millisecond keep the later reading).
    if (times.length > 0 && t <= times[times.length - 1]!) cpus[cpus.length - 1] = Math.max(cpus[cpus.length - 1]!, read());
    else {
      times.push(t);
      cpus.push(read());
    }
  };
  mark();
  const timer = setInterval(mark, everyMs);
  timer.unref?.();
  const at = (t: number): number => {
    if (times.length === 0 || t <= times[0]!) return cpus[0] ?? 0;
    if (t >= times[times.length - 1]!) return cpus[cpus.length - 1]!;
    let lo = 0;
    let hi = times.length - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (times[mid]! <= t) lo = mid;
      else hi = mid;
    }
    const f = (t - times[lo]!) / (times[hi]! - times[lo]!);
    return cpus[lo]! + f * (cpus[hi]! - cpus[lo]!);
  };
  return {
    mark,
    between: (start, end) => Math.max(0, at(end) - at(start)),
    stop: () => clearInterval(timer),
  };
}

/** The command's own boundaries around the session's phases (performance.now() times). */
export interface ScanSteps {
  started: number;
  sessionFrom: number;
  writingFrom: number;
  end: number;
}

/**
 * Where the scan's time went: "phases (s, wall clock / CPU of every thread): walking, stat and the
 * cache 0.41 / 0.52, reading with fingerprinting alongside 12.10 / 22.30, ...". A phase that runs twice
 * (the search, when a cache's corpus is merged) is summed.
 */
export function describePhases(clock: CpuClock, steps: ScanSteps, merged: boolean, containment: boolean): string {
  const wall = new Map<string, number>();
  const cpu = new Map<string, number>();
  for (const e of performance.getEntriesByType('measure')) {
    if (!e.name.startsWith(PHASE_PREFIX) || e.startTime < steps.started) continue;
    const name = e.name.slice(PHASE_PREFIX.length);
    wall.set(name, (wall.get(name) ?? 0) + e.duration / 1000);
    cpu.set(name, (cpu.get(name) ?? 0) + clock.between(e.startTime, e.startTime + e.duration));
  }
  const phase = (label: string, name: string, suffix = '') => `${label} ${(wall.get(name) ?? 0).toFixed(2)} / ${(cpu.get(name) ?? 0).toFixed(2)}${suffix}`;
  const own = (label: string, from: number, to: number) => `${label} ${((to - from) / 1000).toFixed(2)} / ${clock.between(from, to).toFixed(2)}`;
  const parts = [
    own('walking, stat and the cache', steps.started, steps.sessionFrom),
    phase('reading with fingerprinting alongside', 'reading'),
    phase('fingerprinting the rest', 'fingerprinting'),
    phase('exact copies', 'exact-grouping'),
    phase('search', 'search'),
    phase('verification', 'verification'),
    phase('grouping', 'grouping'),
    ...(containment ? [phase('containment after grouping', 'containment', ' (it runs beside verification and grouping)')] : []),
    ...(merged ? [phase('merging with the cache', 'finish')] : []),
    own('writing the outputs', steps.writingFrom, steps.end),
  ];
  const within = merged ? "; the merge's search, verification and grouping are within it" : '';
  const total = `; all of it ${((steps.end - steps.started) / 1000).toFixed(2)} / ${clock.between(steps.started, steps.end).toFixed(2)}`;
  return `phases (s, wall clock / CPU of every thread${within}): ${parts.join(', ')}${total}`;
}
