/**
 * `npx tsx bench/trace-summary.ts TRACE.json [OTHER.json] [--top N]`
 *
 * Splits a page's main-thread time in a Chromium trace (`npm run bench -- ingest --trace` writes the
 * app's and the blank read's) by event name: each event's self time (its duration minus its children's),
 * wall and thread (CPU) time, summed per category and name, between the `bench:scan-start` and
 * `bench:scan-end` marks the bench puts on the page. The thread is the one that recorded those marks.
 * With two traces the tables are printed side by side (the first as "app", the second as "blank").
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

/** The fields of a trace event the summary reads. */
export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tts?: number;
  tdur?: number;
  args?: {
    chrome_mojo_event_info?: { mojo_interface_tag?: string; watcher_notify_interface_tag?: string };
  };
}

/** Self wall and thread time (µs) and count of one event name over the window. */
export interface SelfTime {
  wall: number;
  cpu: number;
  n: number;
}

/** A main thread's split: self time per `category: name`, the window's length and the thread's busy time. */
export interface TraceSplit {
  window: number;
  busy: number;
  busyCpu: number;
  byName: Map<string, SelfTime>;
  /**
   * The microtask rounds (V8's RunMicrotasks, with v8.execute) by the last event before them that says
   * what woke the thread (a mojo message or watcher, a JS function call, a timer): one read's promise
   * chain shows as one round per step it awaits.
   */
  microtasksAfter: Map<string, SelfTime>;
}

/** A complete span on one thread (B/E pairs folded into spans). */
interface Span {
  key: string;
  start: number;
  end: number;
  tstart: number;
  tend: number;
  children: number;
  childrenCpu: number;
}

/** The main thread's self time by event name between the bench's marks (µs). */
export function summarizeTrace(events: TraceEvent[]): TraceSplit {
  const markOf = (name: string) => events.find((e) => e.name === name && e.cat.includes('user_timing'));
  const startMark = markOf('bench:scan-start');
  const endMark = markOf('bench:scan-end');
  if (!startMark) throw new Error('no bench:scan-start mark in the trace');
  const { pid, tid } = startMark;
  const from = startMark.ts;
  const to = endMark?.ts ?? Math.max(...events.filter((e) => e.pid === pid && e.tid === tid).map((e) => e.ts + (e.dur ?? 0)));
  const spans: Span[] = [];
  const open: TraceEvent[] = [];
  const own = events.filter((e) => e.pid === pid && e.tid === tid).sort((a, b) => a.ts - b.ts);
  // A mojo message is named by its interface: which IPC the time went to.
  const tagOf = (e: TraceEvent) => e.args?.chrome_mojo_event_info?.mojo_interface_tag ?? e.args?.chrome_mojo_event_info?.watcher_notify_interface_tag;
  const keyOf = (e: TraceEvent) => {
    const tag = tagOf(e);
    return `${e.cat}: ${e.name}${tag ? ` [${tag}]` : ''}`;
  };
  const push = (e: TraceEvent, end: number, tend: number) =>
    spans.push({ key: keyOf(e), start: e.ts, end, tstart: e.tts ?? 0, tend, children: 0, childrenCpu: 0 });
  for (const e of own) {
    if (e.ph === 'X') push(e, e.ts + (e.dur ?? 0), (e.tts ?? 0) + (e.tdur ?? 0));
    else if (e.ph === 'B') open.push(e);
    else if (e.ph === 'E') {
      const b = open.pop();
      if (b) push(b, e.ts, e.tts ?? b.tts ?? 0);
    }
  }
  // Outer spans first at equal starts, so each span's parent is the innermost open one containing it.
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const clip = (s: number, e: number) => Math.max(0, Math.min(e, to) - Math.max(s, from));
  const byName = new Map<string, SelfTime>();
  const stack: Span[] = [];
  let busy = 0;
  let busyCpu = 0;
  const close = (s: Span) => {
    const wall = clip(s.start, s.end);
    // Thread time is scaled by the share of the span inside the window.
    const share = s.end > s.start ? wall / (s.end - s.start) : 0;
    const cpu = (s.tend - s.tstart) * share;
    const parent = stack[stack.length - 1];
    if (parent) {
      parent.children += wall;
      parent.childrenCpu += cpu;
    } else {
      busy += wall;
      busyCpu += cpu;
    }
    if (wall <= 0 && s.end > s.start) return;
    const t = byName.get(s.key) ?? { wall: 0, cpu: 0, n: 0 };
    t.wall += wall - s.children;
    t.cpu += Math.max(0, cpu - s.childrenCpu);
    t.n++;
    byName.set(s.key, t);
  };
  for (const s of spans) {
    while (stack.length > 0 && stack[stack.length - 1].end <= s.start) close(stack.pop()!);
    stack.push(s);
  }
  while (stack.length > 0) close(stack.pop()!);
  const microtasksAfter = new Map<string, SelfTime>();
  let waker = '?';
  for (const e of own) {
    if (e.ph !== 'X' || e.ts < from || e.ts > to) continue;
    const tag = tagOf(e);
    if (tag) waker = `${e.name} [${tag}]`;
    else if (e.name === 'FunctionCall' || e.name === 'TimerFire' || e.name === 'HandlePostMessage') waker = e.name;
    if (e.name !== 'RunMicrotasks') continue;
    const t = microtasksAfter.get(waker) ?? { wall: 0, cpu: 0, n: 0 };
    t.wall += e.dur ?? 0;
    t.cpu += e.tdur ?? 0;
    t.n++;
    microtasksAfter.set(waker, t);
  }
  return { window: to - from, busy, busyCpu, byName, microtasksAfter };
}

/** Prints the top `top` names of `a` (and the same names' figures in `b`, then b's own top). */
function print(a: TraceSplit, b: TraceSplit | null, top: number): void {
  const ms = (us: number) => (us / 1000).toFixed(0).padStart(7);
  const head = (label: string, s: TraceSplit) =>
    `${label}: window ${ms(s.window)} ms, main thread busy ${ms(s.busy)} ms wall, ${ms(s.busyCpu)} ms CPU`;
  console.log(head('app  ', a));
  if (b) console.log(head('blank', b));
  const table = (title: string, first: TraceSplit, second: TraceSplit | null) => {
    console.log(`\n${title}\n  ${'self wall'.padStart(9)} ${'self CPU'.padStart(9)} ${'count'.padStart(7)}${second ? ` | ${'wall'.padStart(7)} ${'CPU'.padStart(7)} ${'count'.padStart(7)}` : ''}  event`);
    for (const [key, t] of [...first.byName].sort((x, y) => y[1].wall - x[1].wall).slice(0, top)) {
      const o = second?.byName.get(key);
      const other = second ? ` | ${ms(o?.wall ?? 0)} ${ms(o?.cpu ?? 0)} ${String(o?.n ?? 0).padStart(7)}` : '';
      console.log(`  ${ms(t.wall)}ms ${ms(t.cpu)}ms ${String(t.n).padStart(7)}${other}  ${key}`);
    }
  };
  table(b ? 'top by self wall time in the first trace (ms), the second beside it' : 'top by self wall time (ms)', a, b);
  if (b) table('top by self wall time in the second trace (ms), the first beside it', b, a);
  for (const [label, s] of b ? ([['first', a], ['second', b]] as const) : ([['', a]] as const)) {
    if (s.microtasksAfter.size === 0) continue;
    console.log(`\nmicrotask rounds${label ? ` (${label} trace)` : ''} by what ran before them (ms wall, ms CPU, rounds)`);
    for (const [key, t] of [...s.microtasksAfter].sort((x, y) => y[1].cpu - x[1].cpu).slice(0, 8)) console.log(`  ${ms(t.wall)} ${ms(t.cpu)} ${String(t.n).padStart(7)}  ${key}`);
  }
}

if (process.argv[1]?.endsWith('trace-summary.ts')) {
  const { values, positionals } = parseArgs({ options: { top: { type: 'string' } }, allowPositionals: true });
  if (positionals.length === 0) throw new Error('usage: npx tsx bench/trace-summary.ts TRACE.json [OTHER.json] [--top N]');
  const load = (path: string) => summarizeTrace((JSON.parse(readFileSync(path, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents);
  print(load(positionals[0]), positionals[1] ? load(positionals[1]) : null, Number(values.top ?? 15));
}
