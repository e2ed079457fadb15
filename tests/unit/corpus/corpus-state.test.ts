import { describe, expect, it } from 'vitest';
import { createCorpusRunner, mayWrite, panelStatus, transition, writerOf } from '../../../src/corpus/corpus-state.ts';
import type { CorpusAction, CorpusState } from '../../../src/corpus/corpus-state.ts';
import { mulberry32 } from '../../fixtures/mulberry32.ts';

type W = string;
type S = string;
type State = CorpusState<W, S>;
type Action = CorpusAction<W, S>;

const quota = { kind: 'quota' as const, message: 'full' };
const other = { kind: 'other' as const, message: 'broken' };
const unavailable = { kind: 'unavailable' as const, message: 'off' };

/** One of each state (and each with or without a stopped scan's writer), by a short label. */
const STATES: Record<string, State> = {
  starting: { kind: 'starting' },
  restoring: { kind: 'restoring' },
  ready: { kind: 'ready' },
  'scanning:w1': { kind: 'scanning', writer: 'w1', restoring: false },
  'scanning:w1:restoring': { kind: 'scanning', writer: 'w1', restoring: true },
  'full:rest': { kind: 'storage-full', message: 'full', saved: 3, notSaved: 2, rest: 'rest', writer: null },
  'full:rest:w1': { kind: 'storage-full', message: 'full', saved: 3, notSaved: 2, rest: 'rest', writer: 'w1' },
  'failed:quota': { kind: 'failed', error: quota, off: false, writer: null },
  'failed:off': { kind: 'failed', error: unavailable, off: true, writer: null },
  'failed:other:w1': { kind: 'failed', error: other, off: false, writer: 'w1' },
};

/** The label of a state: its kind and what it holds. */
function label(s: State): string {
  switch (s.kind) {
    case 'starting':
    case 'restoring':
    case 'ready':
      return s.kind;
    case 'scanning':
      return `scanning:${s.writer}${s.restoring ? ':restoring' : ''}`;
    case 'storage-full':
      return `full${s.rest === null ? '' : `:${s.rest}`}${s.writer === null ? '' : `:${s.writer}`}`;
    case 'failed':
      return `failed:${s.off ? 'off' : s.error.kind}${s.writer === null ? '' : `:${s.writer}`}`;
  }
}

const ACTIONS: Record<string, Action> = {
  'restore-started': { type: 'restore-started' },
  restored: { type: 'restored' },
  'open w2': { type: 'writer-opened', writer: 'w2' },
  'release w1': { type: 'writer-released', writer: 'w1' },
  'release w9': { type: 'writer-released', writer: 'w9' },
  'storage-full': { type: 'storage-full', message: 'full', saved: 1, notSaved: 4, rest: 'more' },
  'failed other': { type: 'failed', error: other, off: false },
  'resume-stopped': { type: 'resume-stopped' },
  cleared: { type: 'cleared' },
  reset: { type: 'reset' },
  'bundle-refused': { type: 'bundle-refused' },
};

/**
 * Every state and action and where it leads (the state's label; '=' stays; '+scan': the transition
 * asks for a scan of the rest). Written out, so a changed transition is a changed line here.
 */
const EXPECTED: Record<string, Record<string, string>> = {
  'restore-started': {
    starting: 'restoring', restoring: 'restoring', ready: 'restoring', 'scanning:w1': 'scanning:w1:restoring', 'scanning:w1:restoring': '=',
    'full:rest': 'restoring', 'full:rest:w1': '=', 'failed:quota': 'restoring', 'failed:off': 'restoring', 'failed:other:w1': '=',
  },
  restored: {
    starting: 'ready', restoring: 'ready', ready: 'ready', 'scanning:w1': '=', 'scanning:w1:restoring': 'scanning:w1',
    'full:rest': 'ready', 'full:rest:w1': '=', 'failed:quota': 'ready', 'failed:off': 'ready', 'failed:other:w1': '=',
  },
  'open w2': {
    starting: 'scanning:w2', restoring: 'scanning:w2:restoring', ready: 'scanning:w2', 'scanning:w1': 'scanning:w2', 'scanning:w1:restoring': 'scanning:w2',
    'full:rest': 'scanning:w2', 'full:rest:w1': 'scanning:w2', 'failed:quota': 'scanning:w2', 'failed:off': '=', 'failed:other:w1': '=',
  },
  'release w1': {
    starting: '=', restoring: '=', ready: '=', 'scanning:w1': 'ready', 'scanning:w1:restoring': 'restoring',
    'full:rest': '=', 'full:rest:w1': 'full:rest', 'failed:quota': '=', 'failed:off': '=', 'failed:other:w1': 'failed:other',
  },
  'release w9': {
    starting: '=', restoring: '=', ready: '=', 'scanning:w1': '=', 'scanning:w1:restoring': '=',
    'full:rest': '=', 'full:rest:w1': '=', 'failed:quota': '=', 'failed:off': '=', 'failed:other:w1': '=',
  },
  'storage-full': {
    starting: 'full:more', restoring: 'full:more', ready: 'full:more', 'scanning:w1': 'full:more:w1', 'scanning:w1:restoring': 'full:more:w1',
    'full:rest': 'full:more', 'full:rest:w1': 'full:more:w1', 'failed:quota': 'full:more', 'failed:off': 'full:more', 'failed:other:w1': 'full:more:w1',
  },
  'failed other': {
    starting: 'failed:other', restoring: 'failed:other', ready: 'failed:other', 'scanning:w1': 'failed:other:w1', 'scanning:w1:restoring': 'failed:other:w1',
    'full:rest': 'failed:other', 'full:rest:w1': 'failed:other:w1', 'failed:quota': 'failed:other', 'failed:off': 'failed:other', 'failed:other:w1': 'failed:other:w1',
  },
  'resume-stopped': {
    starting: '=', restoring: '=', ready: '=', 'scanning:w1': '=', 'scanning:w1:restoring': '=',
    'full:rest': 'ready+scan', 'full:rest:w1': '=', 'failed:quota': '=', 'failed:off': '=', 'failed:other:w1': '=',
  },
  cleared: {
    starting: 'ready', restoring: 'ready', ready: 'ready', 'scanning:w1': '=', 'scanning:w1:restoring': '=',
    'full:rest': 'ready', 'full:rest:w1': '=', 'failed:quota': 'ready', 'failed:off': 'ready', 'failed:other:w1': '=',
  },
  reset: {
    starting: 'ready', restoring: 'ready', ready: 'ready', 'scanning:w1': '=', 'scanning:w1:restoring': '=',
    'full:rest': 'ready', 'full:rest:w1': '=', 'failed:quota': 'ready', 'failed:off': 'ready', 'failed:other:w1': '=',
  },
  'bundle-refused': {
    starting: 'ready', restoring: 'ready', ready: '=', 'scanning:w1': '=', 'scanning:w1:restoring': '=',
    'full:rest': '=', 'full:rest:w1': '=', 'failed:quota': '=', 'failed:off': '=', 'failed:other:w1': '=',
  },
};

describe('the saved corpus state machine', () => {
  it('moves every state on every action as the table says', () => {
    const wrong: string[] = [];
    for (const [a, action] of Object.entries(ACTIONS)) {
      for (const [s, state] of Object.entries(STATES)) {
        const next = transition(state, action);
        const got = (next.state === state ? '=' : label(next.state)) + next.writes.map((w) => `+${w.kind}`).join('');
        const want = EXPECTED[a]![s]!;
        if (got !== want) wrong.push(`${s} --${a}--> ${got} (expected ${want})`);
        // What a resume scans is the rest the full storage kept out.
        for (const w of next.writes) expect(w.source).toBe('rest');
      }
    }
    expect(wrong).toEqual([]);
  });

  it('derives the panel status, error and storage-full fields from the state alone', () => {
    expect(panelStatus(STATES['scanning:w1:restoring']!)).toEqual({ status: 'restoring', error: null, storageFull: null });
    expect(panelStatus(STATES['failed:off']!)).toEqual({ status: 'off', error: unavailable, storageFull: null });
    expect(panelStatus(STATES['full:rest']!)).toEqual({ status: 'error', error: quota, storageFull: { saved: 3, notSaved: 2, canResume: true } });
    // The Resume waits for the stopped scan to end (its writer closes first).
    expect(panelStatus(STATES['full:rest:w1']!).storageFull?.canResume).toBe(false);
    expect(['failed:quota', 'full:rest', 'ready'].map((s) => mayWrite(STATES[s]!))).toEqual([true, true, true]);
    expect(['failed:off', 'failed:other:w1'].map((s) => mayWrite(STATES[s]!))).toEqual([false, false]);
  });

  it('keeps every opened writer until its scan lets go of it, over seeded random sequences', () => {
    const n = Number(process.env.SIMSIFT_STATE_SEQUENCES ?? 300);
    const first = Number(process.env.SIMSIFT_STATE_SEED ?? 1);
    for (let seed = first; seed < first + n; seed++) {
      const steps = randomSteps(seed, 40);
      if (violation(steps) === null) continue;
      // The shortest failing sequence: steps left out one at a time while it still fails, until none can go.
      let short = steps.slice(0, violation(steps)!.at + 1);
      for (let shrunk = true; shrunk; ) {
        shrunk = false;
        for (let i = short.length - 1; i >= 0; i--) {
          const without = [...short.slice(0, i), ...short.slice(i + 1)];
          if (violation(without) !== null) [short, shrunk] = [without, true];
        }
      }
      throw new Error(`seed ${seed}: ${violation(short)!.message}\nshortest failing sequence: ${JSON.stringify(short)}`);
    }
  });
});

/** What the scan (the test) does or hears; `open`/`release` act on the scan's own writer. */
type Step = { t: 'open' } | { t: 'release' } | { t: 'act'; action: Action };

function randomSteps(seed: number, length: number): Step[] {
  const next = mulberry32(seed);
  const others = Object.values(ACTIONS).filter((a) => a.type !== 'writer-opened' && a.type !== 'writer-released');
  const out: Step[] = [];
  for (let i = 0; i < length; i++) {
    const r = next() % 10;
    out.push(r < 2 ? { t: 'open' } : r < 4 ? { t: 'release' } : { t: 'act', action: others[next() % others.length]! });
  }
  return out;
}

/**
 * Runs `steps` through a runner as the page would: a writer opens only when the last one was let go
 * (the writer lock) and storage takes writes. Returns the first step at which the state lost the open
 * writer, disagreed with its panel fields, or a resume did not scan what the panel offered.
 */
function violation(steps: readonly Step[]): { at: number; message: string } | null {
  const runner = createCorpusRunner<W, S>(() => undefined);
  let open: W | null = null;
  let made = 0;
  for (let at = 0; at < steps.length; at++) {
    const step = steps[at]!;
    const before = panelStatus(runner.state);
    if (step.t === 'open') {
      if (open !== null || !mayWrite(runner.state)) continue;
      open = `w${++made}`;
      runner.dispatch({ type: 'writer-opened', writer: open });
    } else if (step.t === 'release') {
      if (open === null) continue;
      runner.dispatch({ type: 'writer-released', writer: open });
      open = null;
    } else {
      const writes = runner.dispatch(step.action);
      if (step.action.type === 'resume-stopped' && writes.length !== (before.storageFull?.canResume ? 1 : 0)) {
        return { at, message: `a resume offered ${String(before.storageFull?.canResume)} scanned ${writes.length}` };
      }
    }
    const s = runner.state;
    if (writerOf(s) !== open) return { at, message: `the state holds ${String(writerOf(s))}, the scan ${String(open)}` };
    const p = panelStatus(s);
    if ((p.error === null) !== (p.status === 'starting' || p.status === 'restoring' || p.status === 'ready')) {
      return { at, message: `status ${p.status} with error ${JSON.stringify(p.error)}` };
    }
    if (p.storageFull !== null && p.error?.kind !== 'quota') return { at, message: 'storage full without its quota error' };
  }
  return null;
}
