import { describe, expect, it } from 'vitest';
import { summarizeTrace, type TraceEvent } from '../../../bench/trace-summary.ts';

const at = { pid: 1, tid: 1 };
const mark = (name: string, ts: number): TraceEvent => ({ ...at, name, cat: 'blink.user_timing', ph: 'R', ts });
const x = (name: string, ts: number, dur: number, extra: Partial<TraceEvent> = {}): TraceEvent => ({ ...at, name, cat: 'c', ph: 'X', ts, dur, tts: ts, tdur: dur / 2, ...extra });

describe('summarizeTrace', () => {
  it('charges each event its self time inside the marks, on the marked thread only', () => {
    const s = summarizeTrace([
      x('Task', 0, 100), // before the window
      mark('bench:scan-start', 100),
      x('Task', 110, 70),
      x('Inner', 120, 30),
      x('Leaf', 125, 10),
      { ...at, name: 'Open', cat: 'c', ph: 'B', ts: 160 },
      { ...at, name: 'Open', cat: 'c', ph: 'E', ts: 180 },
      x('Task', 190, 40), // cut at the end mark
      { ...x('Task', 120, 500), tid: 2 }, // another thread
      mark('bench:scan-end', 210),
    ]);
    expect(s.window).toBe(110);
    expect(s.busy).toBe(70 + 20);
    expect(s.byName.get('c: Task')).toEqual({ wall: 70 - 30 - 20 + 20, cpu: expect.any(Number), n: 2 });
    expect(s.byName.get('c: Inner')!.wall).toBe(20);
    expect(s.byName.get('c: Leaf')!.wall).toBe(10);
    expect(s.byName.get('c: Open')!.wall).toBe(20);
  });

  it('names mojo events by interface and counts microtask rounds by what woke them', () => {
    const mojo = (ts: number, tag: string) => x('Receive mojo message', ts, 5, { args: { chrome_mojo_event_info: { mojo_interface_tag: tag } } });
    const s = summarizeTrace([
      mark('bench:scan-start', 0),
      mojo(10, 'blink.mojom.BlobReaderClient'),
      x('RunMicrotasks', 16, 4),
      x('FunctionCall', 30, 5),
      x('RunMicrotasks', 36, 6),
      mojo(50, 'blink.mojom.BlobReaderClient'),
      x('RunMicrotasks', 56, 2),
      mark('bench:scan-end', 100),
    ]);
    expect(s.byName.get('c: Receive mojo message [blink.mojom.BlobReaderClient]')!.n).toBe(2);
    expect(s.microtasksAfter.get('Receive mojo message [blink.mojom.BlobReaderClient]')).toEqual({ wall: 6, cpu: 3, n: 2 });
    expect(s.microtasksAfter.get('FunctionCall')).toEqual({ wall: 6, cpu: 3, n: 1 });
  });
});
