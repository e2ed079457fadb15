/**
 * Scan session markers: a scan is 'running' from its start until it is marked finished, cancelled or
 * failed; one left 'running' by a closed tab is an interrupted scan the next load offers to resume.
 */
import { readTransaction, writeTransaction } from './database.ts';
import type { ScanSessionRecord, ScanSessionState } from './schema.ts';
import { StorageError } from './storage-error.ts';

/** Records the start of a scan; returns its id (pass it to addBatch as `sessionId`). */
export async function beginScanSession(options: { label: string; total: number; notSaved?: [string, string, string][]; sync?: boolean }): Promise<number> {
  const now = Date.now();
  const record: ScanSessionRecord = {
    label: options.label,
    total: options.total,
    committed: 0,
    state: 'running',
    startedAt: now,
    updatedAt: now,
    finishedAt: null,
  };
  if (options.notSaved && options.notSaved.length > 0) record.notSaved = options.notSaved;
  if (options.sync) record.sync = true;
  return writeTransaction(['scan-sessions', 'meta'], async (tx) => {
    const id = await tx.objectStore('scan-sessions').add(record);
    await tx.objectStore('meta').put({ key: 'scan-open', sessionId: id });
    return id;
  });
}

/** Marks a scan as ended ('finished', 'cancelled', 'failed' or 'interrupted'), with an optional message. */
export async function endScanSession(
  id: number,
  state: Exclude<ScanSessionState, 'running'>,
  message?: string,
): Promise<ScanSessionRecord> {
  return writeTransaction(['scan-sessions', 'meta'], async (tx) => {
    const store = tx.objectStore('scan-sessions');
    const [record, open] = await Promise.all([store.get(id), tx.objectStore('meta').get('scan-open')]);
    if (!record) throw new StorageError('invalid-input', `no scan session ${id}`);
    const now = Date.now();
    const next: ScanSessionRecord = { ...record, state, updatedAt: now, finishedAt: now };
    if (message !== undefined) next.message = message;
    await store.put(next);
    if (open && open.key === 'scan-open' && open.sessionId === id) await tx.objectStore('meta').delete('scan-open');
    return next;
  });
}

/**
 * Marks a scan stopped by a full storage: 'storage-full' when the storage still takes the update,
 * else by deleting its scan-open record alone (see ScanOpenRecord), which a full storage allows.
 */
export async function markStorageFull(id: number, message?: string): Promise<void> {
  try {
    await endScanSession(id, 'storage-full', message);
  } catch {
    await writeTransaction(['meta'], async (tx) => {
      const open = await tx.objectStore('meta').get('scan-open');
      if (open && open.key === 'scan-open' && open.sessionId === id) await tx.objectStore('meta').delete('scan-open');
    });
  }
}

/**
 * The most recent scan still marked 'running' (a closed tab) or 'storage-full' (stopped by a full
 * quota), or null. A 'running' one is only interrupted if no other tab is scanning: call it while
 * holding the writer lock (see tab-coordination.ts).
 */
export async function findUnfinishedScan(): Promise<ScanSessionRecord | null> {
  return readTransaction(['scan-sessions', 'meta'], async (tx) => {
    const open = await tx.objectStore('meta').get('scan-open');
    let cursor = await tx.objectStore('scan-sessions').openCursor(null, 'prev');
    let newest = true;
    while (cursor) {
      const record = checkSession(cursor.value);
      // The last scan was cancelled before all its files were saved: the corpus is partial.
      if (newest && record.state === 'cancelled' && record.committed < record.total) return record;
      newest = false;
      if (record.state === 'storage-full') return record;
      if (record.state === 'running') {
        const tabClosed = open?.key === 'scan-open' && open.sessionId === record.id;
        return tabClosed ? record : { ...record, state: 'storage-full' };
      }
      cursor = await cursor.continue();
    }
    return null;
  });
}

/** Every scan's files that were listed but not stored (see ScanSessionRecord.notSaved), newest scan first. */
export async function listNotSavedFiles(): Promise<[string, string, string][]> {
  const sessions = await listScanSessions(Infinity);
  const out: [string, string, string][] = [];
  for (const s of sessions) {
    if (!Array.isArray(s.notSaved)) continue;
    for (const note of s.notSaved) if (Array.isArray(note) && note.length === 3 && note.every((x) => typeof x === 'string')) out.push(note);
  }
  return out;
}

/** The most recent scan sessions, newest first. */
export async function listScanSessions(limit = 20): Promise<ScanSessionRecord[]> {
  return readTransaction(['scan-sessions'], async (tx) => {
    const out: ScanSessionRecord[] = [];
    let cursor = await tx.objectStore('scan-sessions').openCursor(null, 'prev');
    while (cursor && out.length < limit) {
      out.push(cursor.value);
      cursor = await cursor.continue();
    }
    return out;
  });
}

/** A session record as read back; counts that cannot be (negative, more saved than listed) are damage. */
function checkSession(record: ScanSessionRecord): ScanSessionRecord {
  const count = (x: unknown) => Number.isSafeInteger(x) && (x as number) >= 0;
  if (!count(record.total) || !count(record.committed) || record.committed > record.total || typeof record.label !== 'string') {
    throw new StorageError('corrupt', `scan session ${String(record.id)} has counts ${String(record.committed)} of ${String(record.total)}`);
  }
  return record;
}
