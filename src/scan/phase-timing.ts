/**
 * Owns the scan's phase marks: each phase is recorded as a User Timing measure named
 * `simsift:<phase>` (with optional figures in `detail`), so a benchmark or a person with the browser's
 * performance panel can see where a scan's time went without the UI having to show every phase.
 */

/** The prefix of every measure a scan records. */
export const PHASE_PREFIX = 'simsift:';

/**
 * Records `phase` as a measure from `start` to `end` (performance.now() times, ms). Never throws:
 * timing is for people, and an environment without User Timing simply records nothing.
 */
export function recordPhase(phase: string, start: number, end: number, detail?: Record<string, number>): void {
  try {
    performance.measure(PHASE_PREFIX + phase, { start, end, ...(detail ? { detail } : {}) });
  } catch {
    // No User Timing here (or a start before the time origin): nothing to record.
  }
}
