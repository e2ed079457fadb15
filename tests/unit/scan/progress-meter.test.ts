import { describe, expect, it } from 'vitest';
import { estimateRate } from '../../../src/scan/progress-meter.ts';

describe('estimateRate', () => {
  it('gives bytes per second and the time left at that rate', () => {
    expect(estimateRate(50e6, 150e6, 2000)).toEqual({ bytesPerSecond: 25e6, secondsLeft: 4 });
  });
  it('says unknown while too little time or nothing has passed', () => {
    expect(estimateRate(1e6, 2e6, 100)).toEqual({ bytesPerSecond: 0, secondsLeft: null });
    expect(estimateRate(0, 2e6, 5000)).toEqual({ bytesPerSecond: 0, secondsLeft: null });
  });
  it('gives no time left when the total is unknown or smaller than what is done (never "about 0 s left")', () => {
    expect(estimateRate(63e6, 252e3, 2000)).toEqual({ bytesPerSecond: 31.5e6, secondsLeft: null });
    expect(estimateRate(117e6, 0, 2000)).toEqual({ bytesPerSecond: 58.5e6, secondsLeft: null });
    expect(estimateRate(2e6, 2e6, 2000)).toEqual({ bytesPerSecond: 1e6, secondsLeft: 0 });
  });
});
