/**
 * The CLI's spill of kept feature sets beyond the scan's budget (scan-ingest.ts KEPT_SETS_BUDGET_BYTES):
 * each ingest thread appends the encoded sets of its batches to a file of its own in the system's
 * temporary directory, removed from the directory as soon as it is open, so nothing is left behind
 * whatever ends the process; the descriptor belongs to the process, so any thread reads a set back
 * (`withSpilledSets`) and no file of the scan is read twice for verification. A set costs about 0.4
 * bytes of disk per byte of text; a write that fails (a full disk) drops the batch's sets instead, and
 * their documents are read again if a candidate pair needs them.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import type { JobSets } from '../core/groups/packed-sets.ts';
import type { IngestBatchResult, IngestItem, SpilledBatch } from '../workers/ingest-protocol.ts';

/** This thread's spill file: its descriptor and end; null once it could not be opened or written. */
let spill: { fd: number; end: number } | null | undefined;

/** Opens this thread's spill file (created exclusively, owner-only) and unlinks it; null if that fails. */
function openSpill(): { fd: number; end: number } | null {
  const path = join(tmpdir(), `simsift-sets-${process.pid}-${threadId}-${randomBytes(6).toString('hex')}`);
  let fd: number;
  try {
    fd = openSync(path, 'wx+', 0o600);
  } catch {
    return null;
  }
  try {
    unlinkSync(path);
  } catch {
    // A platform that cannot unlink an open file: removed at exit instead.
    process.once('exit', () => rmSync(path, { force: true }));
  }
  return { fd, end: 0 };
}

/**
 * Moves `result.kept` (a batch's encoded sets) to this thread's spill file: `result.spilled` says where.
 * On a failed write the sets are dropped (neither kept nor spilled) and later batches keep none either.
 */
export function spillKept(result: IngestBatchResult): void {
  const kept = result.kept;
  if (!kept) return;
  delete result.kept;
  if (spill === undefined) spill = openSpill();
  if (spill === null || kept.docs.length === 0) return;
  const n = kept.docs.length;
  const bytes = new Uint8Array(kept.words.buffer, kept.words.byteOffset, kept.words.byteLength);
  try {
    let written = 0;
    while (written < bytes.length) written += writeSync(spill.fd, bytes, written, bytes.length - written, spill.end + written);
  } catch {
    closeSync(spill.fd);
    spill = null;
    return;
  }
  const out: SpilledBatch = { docs: kept.docs, fd: spill.fd, at: new Float64Array(n), words: new Uint32Array(n) };
  for (let i = 0; i < n; i++) {
    out.at[i] = spill.end + 4 * kept.offsets[i];
    out.words[i] = kept.offsets[i + 1] - kept.offsets[i];
  }
  spill.end += bytes.length;
  result.spilled = out;
}

/**
 * A job's items and kept sets with the items' spilled sets (`IngestItem.spilled`) read back into the
 * kept sets; an item whose set cannot be read back is reported unreadable with the reason.
 */
export function withSpilledSets(items: IngestItem[], kept: JobSets | undefined): { items: IngestItem[]; kept: JobSets | undefined } {
  let extra = 0;
  let words = kept?.words.length ?? 0;
  for (const item of items) if (item.spilled) (extra++, (words += item.spilled.words));
  if (extra === 0) return { items, kept };
  const own = kept?.docs.length ?? 0;
  const out: JobSets = { docs: new Uint32Array(own + extra), offsets: new Uint32Array(own + extra + 1), words: new Uint32Array(words) };
  if (kept) {
    out.docs.set(kept.docs);
    out.offsets.set(kept.offsets);
    out.words.set(kept.words);
  }
  let s = own;
  let at = out.offsets[own];
  const bytes = new Uint8Array(out.words.buffer);
  const read = items.map((item, i) => {
    const ref = item.spilled;
    if (!ref) return item;
    const { spilled: _, ...rest } = item;
    try {
      const length = 4 * ref.words;
      let done = 0;
      while (done < length) {
        const n = readSync(ref.fd, bytes, 4 * at + done, length - done, ref.at + done);
        if (n === 0) throw new Error('the spilled feature set ends early');
        done += n;
      }
    } catch (error) {
      return { ...rest, error: error instanceof Error ? error.message : String(error) };
    }
    out.docs[s] = i;
    at += ref.words;
    out.offsets[++s] = at;
    return rest;
  });
  // Items whose read failed left no entry: the arrays end at the last one read.
  // Sets named in shared memory stay there: only the copied ones are joined with those read back.
  const shared = kept?.shared ? { shared: kept.shared } : {};
  return { items: read, kept: { docs: out.docs.subarray(0, s), offsets: out.offsets.subarray(0, s + 1), words: out.words.subarray(0, at), ...shared } };
}
