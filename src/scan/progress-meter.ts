/** Throughput and time-left estimates for the progress view (pure: time is passed in). */

/** Bytes per second and seconds left from bytes done so far over `elapsedMs`. */
export function estimateRate(bytesDone: number, bytesTotal: number, elapsedMs: number): { bytesPerSecond: number; secondsLeft: number | null } {
  // Under a quarter second the rate is mostly start-up noise.
  if (elapsedMs < 250 || bytesDone <= 0) return { bytesPerSecond: 0, secondsLeft: null };
  const bytesPerSecond = (bytesDone * 1000) / elapsedMs;
  const secondsLeft = Math.max(0, (bytesTotal - bytesDone) / bytesPerSecond);
  return { bytesPerSecond, secondsLeft };
}
