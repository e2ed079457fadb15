/** File sizes as people read them in a list: "12 KB", "3.4 MB", "820 B" (decimal units, like file managers). */

/** A byte count as a short human size; '' when unknown (NaN or negative). */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let u = 0;
  while (value >= 999.5 && u < units.length - 1) {
    value /= 1000;
    u++;
  }
  return `${value < 9.95 ? value.toFixed(1) : Math.round(value)} ${units[u]}`;
}
