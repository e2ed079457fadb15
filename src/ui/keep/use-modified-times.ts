/**
 * Modification times for the keep rules. Every scan records them now (scan/quick-check.ts asks each
 * listed File in small tasks; handle-read files carry theirs), and the saved corpus keeps them; what is
 * still missing (a corpus saved before, a document without a time) is filled here. A File is asked for
 * its lastModified only once a rule needs it (newest, oldest), only for documents in a group: in Chromium
 * each first metadata read of such a File, and each clone of one into a worker, is a synchronous IPC
 * (asked for every grouped file after the results showed, it made long tasks, in a worker as on the
 * main thread).
 */
import { useEffect, useState } from 'react';

/** Files asked per call of the reader (each File is cloned to the worker). */
const CHUNK = 50;

/** Reads the files' modification times off the main thread (the app's export worker). */
export type ReadFileTimes = (files: Blob[]) => Promise<Float64Array>;

/** The docs' times with the grouped documents' missing ones filled in as they are read (0: unknown). */
export function useModifiedTimes(
  docs: { count: number; files: readonly Blob[]; modified?: Float64Array },
  members: Int32Array,
  readTimes: ReadFileTimes,
  /** Whether a rule needs the times (newest, oldest): only then are Files asked, since each ask can block. */
  wanted: boolean,
): Float64Array | undefined {
  const [filled, setFilled] = useState<{ for: object; times: Float64Array } | null>(null);
  useEffect(() => {
    if (!wanted) return;
    const missing: number[] = [];
    const seen = new Set<number>();
    for (const d of members) {
      if (seen.has(d)) continue;
      seen.add(d);
      const file = docs.files[d];
      // The stand-ins for handle-read and not-kept documents are nameless Files: their time is not the document's.
      if (!(docs.modified?.[d] ?? 0) && file instanceof File && file.name !== '') missing.push(d);
    }
    if (missing.length === 0) return;
    const times = docs.modified ? docs.modified.slice() : new Float64Array(docs.count);
    let cancelled = false;
    void (async () => {
      for (let at = 0; at < missing.length && !cancelled; at += CHUNK) {
        const part = missing.slice(at, at + CHUNK);
        const read = await readTimes(part.map((d) => docs.files[d]!)).catch(() => null);
        if (read === null) return;
        part.forEach((d, i) => (times[d] = read[i]!));
      }
      if (!cancelled) setFilled({ for: docs, times });
    })();
    return () => {
      cancelled = true;
    };
  }, [docs, members, readTimes, wanted]);
  return filled?.for === docs ? filled.times : docs.modified;
}

/**
 * How many grouped documents have no modification time and none can be read for them (a restored
 * document's stored Blob is not a File): the keep panel says so when newest or oldest is a rule.
 */
export function withoutTime(members: ArrayLike<number>, docs: { files: readonly Blob[]; modified?: Float64Array }): number {
  let n = 0;
  for (let s = 0; s < members.length; s++) {
    const d = members[s]!;
    const file = docs.files[d];
    if (!((docs.modified?.[d] ?? 0) > 0) && !(file instanceof File && file.name !== '')) n++;
  }
  return n;
}
