/**
 * Modification times for the keep rules. A scan through directory handles, a restored corpus and the CLI
 * have them already (ScanDocs.modified); a folder-input File of a fresh scan is asked for its
 * lastModified here, only for documents in a group and a slice at a time, after the results show: in
 * Chromium each first metadata read of such a File is a synchronous IPC on the main thread (see
 * scan/read-file-bytes.ts), too costly on every file of the scan's read path.
 */
import { useEffect, useState } from 'react';

/** Files asked per slice (about 0.13 ms each when idle). */
const SLICE = 100;

/** The docs' times with the grouped documents' missing ones filled in as they are read (0: unknown). */
export function useModifiedTimes(
  docs: { count: number; files: readonly Blob[]; modified?: Float64Array },
  members: Int32Array,
): Float64Array | undefined {
  const [filled, setFilled] = useState<{ for: object; times: Float64Array } | null>(null);
  useEffect(() => {
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
    let at = 0;
    let timer: ReturnType<typeof setTimeout>;
    const step = () => {
      for (const end = Math.min(missing.length, at + SLICE); at < end; at++) times[missing[at]!] = (docs.files[missing[at]!] as File).lastModified;
      if (at < missing.length) timer = setTimeout(step, 0);
      else setFilled({ for: docs, times });
    };
    timer = setTimeout(step, 0);
    return () => clearTimeout(timer);
  }, [docs, members]);
  return filled?.for === docs ? filled.times : docs.modified;
}
