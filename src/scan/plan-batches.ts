/**
 * Orders a scan's files and cuts them into batches by bytes: largest files first (so a huge file
 * never starts last and leaves the other workers idle), identical sizes next to each other (so
 * copies of one file tend to share a batch and are fingerprinted once).
 */

/** Doc order and batch bounds: batch b holds docs `bounds[b] .. bounds[b + 1]`. */
export interface BatchPlan {
  /** `order[docId]` = index of the file in the collected (input) order. */
  order: Uint32Array;
  bounds: Uint32Array;
  count: number;
}

export interface BatchLimits {
  /** A batch closes once it holds at least this many bytes. */
  targetBytes: number;
  /** ... or this many files. */
  maxFiles: number;
}

/** Batch target for `totalBytes` over `workers`: ~16 batches per worker, 256 KiB to 8 MiB each. */
export function batchLimitsFor(totalBytes: number, workers: number): BatchLimits {
  const target = Math.min(8 * 1024 * 1024, Math.max(256 * 1024, Math.ceil(totalBytes / (workers * 16))));
  return { targetBytes: target, maxFiles: 1000 };
}

/** Sorts by size, largest first (ties keep input order), then cuts batches. Linear apart from one numeric sort. */
export function planBatches(sizes: ArrayLike<number>, limits: BatchLimits): BatchPlan {
  const n = sizes.length;
  // Pack (size, reversed index) into one double so a native numeric sort does the work.
  const indexBits = Math.max(1, Math.ceil(Math.log2(n + 1)));
  const scale = 2 ** indexBits;
  const maxSize = 2 ** (53 - indexBits) - 1;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = Math.min(sizes[i], maxSize) * scale + (n - 1 - i);
  keys.sort();
  const order = new Uint32Array(n);
  for (let d = 0; d < n; d++) order[d] = n - 1 - (keys[n - 1 - d] % scale);
  const bounds: number[] = [0];
  let bytes = 0;
  let files = 0;
  for (let d = 0; d < n; d++) {
    bytes += sizes[order[d]];
    files++;
    if (bytes >= limits.targetBytes || files >= limits.maxFiles) {
      bounds.push(d + 1);
      bytes = 0;
      files = 0;
    }
  }
  if (bounds[bounds.length - 1] !== n) bounds.push(n);
  return { order, bounds: Uint32Array.from(bounds), count: bounds.length - 1 };
}
