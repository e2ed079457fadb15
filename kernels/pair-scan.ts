// The all-pairs search's inner loop (AssemblyScript, compiled to src/core/index/pair-scan-wasm.ts by
// bin/build-kernels.js): every pair of records inside runs of records whose masked bits agree and
// whose Hamming distance is at most k. One native i64.popcnt per candidate instead of the two SWAR
// popcounts JavaScript needs over 32-bit halves.
//
// A record is 16 bytes: the fingerprint as one little-endian u64 (the half compared first in the low
// word, as all-pairs lays it out), then two u32 words the scan does not read (document, key).

/** Where the last `scanRuns` stopped: the run it was in and the next row to compare. */
let resumeRun: i32 = 0;
let resumeRow: i32 = 0;

export function nextRun(): i32 {
  return resumeRun;
}

export function nextRow(): i32 {
  return resumeRow;
}

/**
 * Scans runs [run, runEnd) of the records at `records`: run r holds the records from the previous
 * run's end (or `row` for the first) to the u32 `ends[r]`. Writes each pair (i, j), i < j, of one run
 * with (fingerprint_i XOR fingerprint_j) & mask == 0 and popcount <= k to `out` as two u32 record
 * numbers. Stops before a row whose pairs might not fit in `capacity` (nextRun/nextRow say where
 * to go on) and returns the number of pairs written.
 */
export function scanRuns(
  records: usize, ends: usize, run: i32, runEnd: i32, row: i32, k: i32, maskLow: u32, maskHigh: u32, out: usize, capacity: i32,
): i32 {
  const mask: u64 = (<u64>maskHigh << 32) | <u64>maskLow;
  const limit: u64 = <u64>k;
  let found: i32 = 0;
  while (run < runEnd) {
    const end = <i32>load<u32>(ends + (<usize>run << 2));
    while (row < end - 1) {
      if (capacity - found < end - row) {
        resumeRun = run;
        resumeRow = row;
        return found;
      }
      const a = load<u64>(records + (<usize>row << 4));
      let p = records + (<usize>(row + 1) << 4);
      const last = records + (<usize>end << 4);
      while (p < last) {
        const x = a ^ load<u64>(p);
        if ((x & mask) == 0 && popcnt<u64>(x) <= limit) {
          store<u32>(out + (<usize>found << 3), row);
          store<u32>(out + (<usize>found << 3), <u32>((p - records) >> 4), 4);
          found++;
        }
        p += 16;
      }
      row++;
    }
    if (row < end) row = end;
    run++;
  }
  resumeRun = run;
  resumeRow = row;
  return found;
}
