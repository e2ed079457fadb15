/** Throughput and time-left estimates for the progress view (pure: time is passed in). */

/**
 * Bytes per second and seconds left from bytes done so far over `elapsedMs`. The time left is
 * unknown (null) when the total is (0) or when more is done than the (estimated) total: "about 0 s
 * left" in the middle of a huge file is not an estimate.
 */
export function estimateRate(bytesDone: number, bytesTotal: number, elapsedMs: number): { bytesPerSecond: number; secondsLeft: number | null } {
  // Under a quarter second the rate is mostly start-up noise.
  if (elapsedMs < 250 || bytesDone <= 0) return { bytesPerSecond: 0, secondsLeft: null };
  const bytesPerSecond = (bytesDone * 1000) / elapsedMs;
  if (bytesTotal <= 0 || bytesDone > bytesTotal) return { bytesPerSecond, secondsLeft: null };
  const secondsLeft = (bytesTotal - bytesDone) / bytesPerSecond;
  return { bytesPerSecond, secondsLeft };
}
