import { describe, expect, it } from 'vitest';
import { startCpuClock } from '../../../src/cli/scan-phases.ts';

describe("simsift scan's CPU clock", () => {
  it('gives a phase the CPU between its ends, placing an end between two samples by interpolation', () => {
    let t = 0;
    let cpu = 0;
    const clock = startCpuClock(1e9, () => cpu, () => t);
    // Samples at 0 ms (0 s of CPU), 100 ms (0.3 s: two threads busy) and 300 ms (0.4 s).
    t = 100;
    cpu = 0.3;
    clock.mark();
    t = 300;
    cpu = 0.4;
    clock.mark();
    clock.stop();
    expect(clock.between(0, 100)).toBeCloseTo(0.3);
    expect(clock.between(50, 200)).toBeCloseTo(0.15 + 0.05);
    // Outside the samples: no CPU is invented.
    expect(clock.between(300, 900)).toBe(0);
    expect(clock.between(-50, 0)).toBe(0);
    // A mark in the same millisecond as the last sample keeps the later reading.
    t = 300;
    cpu = 0.5;
    clock.mark();
    expect(clock.between(0, 300)).toBeCloseTo(0.5);
  });
});
