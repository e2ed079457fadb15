/**
 * CPU profiles of a page's dedicated workers (the ingest pool, the index worker) for `--profile`:
 * the page's DevTools session auto-attaches to its workers (non-flattened, so Playwright's
 * CDPSession can talk to them through `Target.sendMessageToTarget`) and samples each one, so the
 * bench can say where the workers' CPU goes, not only the main thread's.
 */
import type { CDPSession } from '@playwright/test';

/** The parts of a CDP CPU profile the summaries read. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
  startTime?: number;
  endTime?: number;
}

/** One worker's profile, named by its script. */
export interface WorkerProfile {
  url: string;
  profile: CpuProfile;
}

type Pending = { resolve: (result: unknown) => void; reject: (error: Error) => void };

/**
 * Starts sampling every worker of the page behind `session` (those running and those started later,
 * from their attachment on) every `intervalUs`; `stop` returns each worker's profile.
 */
export async function profileWorkers(session: CDPSession, intervalUs = 1000): Promise<{ stop(): Promise<WorkerProfile[]> }> {
  const workers = new Map<string, { url: string; started: Promise<unknown> }>();
  const pending = new Map<number, Pending>();
  let nextId = 1;
  const send = (sessionId: string, method: string, params: Record<string, unknown> = {}) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      void session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(reject);
    });
  session.on('Target.receivedMessageFromTarget', (event: { sessionId: string; message: string }) => {
    const message = JSON.parse(event.message) as { id?: number; result?: unknown; error?: { message: string } };
    const waiting = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id!);
    if (message.error) waiting.reject(new Error(message.error.message));
    else waiting.resolve(message.result);
  });
  session.on('Target.attachedToTarget', (event: { sessionId: string; targetInfo: { type: string; url: string } }) => {
    if (event.targetInfo.type !== 'worker') return;
    const { sessionId } = event;
    const started = (async () => {
      await send(sessionId, 'Profiler.enable');
      await send(sessionId, 'Profiler.setSamplingInterval', { interval: intervalUs });
      await send(sessionId, 'Profiler.start');
    })().catch(() => undefined);
    workers.set(sessionId, { url: event.targetInfo.url, started });
  });
  session.on('Target.detachedFromTarget', (event: { sessionId: string }) => workers.delete(event.sessionId));
  await session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  return {
    async stop() {
      const out: WorkerProfile[] = [];
      for (const [sessionId, worker] of workers) {
        await worker.started;
        try {
          const { profile } = (await send(sessionId, 'Profiler.stop')) as { profile: CpuProfile };
          out.push({ url: worker.url, profile });
        } catch {
          // A worker that ended (terminated by the scan) has no profile to give.
        }
      }
      return out;
    },
  };
}

/** The busy (non-idle) samples of `profile`: self time per function and charged to the nearest and outermost app function. */
export function summarizeProfile(profile: CpuProfile, from = 0): { total: number; self: Map<string, number>; nearest: Map<string, number>; outermost: Map<string, number> } {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (f: { functionName: string; url: string; lineNumber: number }) => `${f.functionName || '(anonymous)'} ${f.url.slice(f.url.lastIndexOf('/') + 1)}:${f.lineNumber + 1}`;
  const isApp = (id: number) => /\/assets\/[^/]+\.js$/.test(nodes.get(id)!.callFrame.url);
  const self = new Map<string, number>();
  const nearest = new Map<string, number>();
  const outermost = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  let total = 0;
  for (let i = Math.max(0, from); i < profile.samples.length; i++) {
    const id = profile.samples[i];
    const frame = nodes.get(id)!.callFrame;
    if (frame.functionName === '(idle)') continue;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    total += ms;
    add(self, label(frame), ms);
    let near: number | undefined;
    let outer: number | undefined;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      if (!isApp(at)) continue;
      near ??= at;
      outer = at;
    }
    add(nearest, near === undefined ? `(no app frame) ${label(frame)}` : label(nodes.get(near)!.callFrame), ms);
    add(outermost, outer === undefined ? `(no app frame) ${label(frame)}` : label(nodes.get(outer)!.callFrame), ms);
  }
  return { total, self, nearest, outermost };
}

/** Prints a summary's top entries, each with its share of the busy samples. */
export function printTop(title: string, map: Map<string, number>, total: number, n: number): void {
  console.log(`  ${title}:`);
  for (const [key, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    console.log(`    ${(ms / 1000).toFixed(2).padStart(7)} s ${((100 * ms) / Math.max(total, 1e-9)).toFixed(1).padStart(5)}%  ${key}`);
  }
}

/**
 * Prints the workers' profiles: busy time per worker, then, per kind of worker (its script), the
 * functions with the most self time and the app functions their time is charged to.
 */
export function printWorkerProfiles(profiles: WorkerProfile[]): void {
  const byKind = new Map<string, CpuProfile[]>();
  for (const p of profiles) {
    const kind = p.url.slice(p.url.lastIndexOf('/') + 1).replace(/-[\w-]{8}\.js$/, '.js');
    byKind.set(kind, [...(byKind.get(kind) ?? []), p.profile]);
  }
  for (const [kind, list] of byKind) {
    const self = new Map<string, number>();
    const nearest = new Map<string, number>();
    let total = 0;
    const each: string[] = [];
    for (const profile of list) {
      const s = summarizeProfile(profile);
      total += s.total;
      each.push((s.total / 1000).toFixed(2));
      for (const [k, v] of s.self) self.set(k, (self.get(k) ?? 0) + v);
      for (const [k, v] of s.nearest) nearest.set(k, (nearest.get(k) ?? 0) + v);
    }
    console.log(`  workers ${kind} (${list.length}): busy ${(total / 1000).toFixed(2)} s in all (each: ${each.join(', ')} s)`);
    printTop(`${kind}: most self time`, self, total, 20);
    printTop(`${kind}: charged to the nearest app function (its native calls included)`, nearest, total, 20);
  }
}
