/** Wording of the corpus panel: storage sizes and the interrupted-scan question. */

/** Bytes as a short human size (binary units, one decimal below 10). */
export function formatStorageBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 && unit > 0 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** "The last scan was interrupted — N of M files saved. Resume?" */
export function interruptedMessage(committed: number, total: number, storageFull = false, cancelled = false): string {
  if (storageFull) {
    // What is missing, not only the last attempt's share: a resume that the full storage stopped again
    // saved 0 of the files it was given, but the corpus still lacks exactly those.
    const missing = total - committed;
    return `The saved corpus is partial: the storage was full, ${missing.toLocaleString('en')} file${missing === 1 ? '' : 's'} of the last scan not saved (${committed.toLocaleString('en')} of ${total.toLocaleString('en')} saved). Free some space, then resume?`;
  }
  return `The last scan was ${cancelled ? 'cancelled' : 'interrupted'} — ${committed.toLocaleString('en')} of ${total.toLocaleString('en')} files saved. Resume?`;
}
