/** Human formatting for progress figures (bytes, rates, durations). */

/** 1.2 MB, 340 KB, 12 B (decimal units, like file managers). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let u = 0;
  while (value >= 1000 && u < units.length - 1) {
    value /= 1000;
    u++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[u]}`;
}

/** "3 s", "1 min 05 s". */
export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}
