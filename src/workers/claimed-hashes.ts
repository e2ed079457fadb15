/**
 * A lock-free set of 64-bit content hashes in a SharedArrayBuffer, shared by all ingest workers of
 * a scan: the first worker to claim a hash fingerprints that text, the others mark their file as a
 * copy, so each distinct text is fingerprinted once across the whole pool.
 */

// Slot layout: [state, hi, lo] as Int32; state 0 = empty, 1 = being written, 2 = ready.
const EMPTY = 0;
const WRITING = 1;
const READY = 2;

/** A shared buffer sized for `expected` distinct hashes (load factor at most 1/2). */
export function createClaimBuffer(expected: number): SharedArrayBuffer {
  let slots = 1024;
  while (slots < expected * 2) slots *= 2;
  return new SharedArrayBuffer(slots * 3 * Int32Array.BYTES_PER_ELEMENT);
}

/** True when this context can share memory with workers (cross-origin isolated, or Node). */
export function canShareMemory(): boolean {
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  return typeof SharedArrayBuffer !== 'undefined' && isolated !== false;
}

/**
 * Claims `(hi, lo)`: returns true if this call inserted it (the caller owns the text), false if it
 * was already there. Safe under concurrent calls from several workers on the same buffer.
 */
export function claimHash(buffer: SharedArrayBuffer, hi: number, lo: number): boolean {
  const table = new Int32Array(buffer);
  const mask = table.length / 3 - 1;
  const h = hi | 0;
  const l = lo | 0;
  // Mix both halves so hashes differing only in hi still spread.
  let slot = (Math.imul(l ^ (h >>> 7), 0x9e3779b1) >>> 0) & mask;
  for (let probes = 0; probes <= mask; probes++) {
    const at = slot * 3;
    let state = Atomics.load(table, at);
    if (state === EMPTY) {
      state = Atomics.compareExchange(table, at, EMPTY, WRITING);
      if (state === EMPTY) {
        Atomics.store(table, at + 1, h);
        Atomics.store(table, at + 2, l);
        Atomics.store(table, at, READY);
        return true;
      }
    }
    // Another worker is writing this slot: its key is needed before moving on (a few ns).
    while (state === WRITING) state = Atomics.load(table, at);
    if (Atomics.load(table, at + 1) === h && Atomics.load(table, at + 2) === l) return false;
    slot = (slot + 1) & mask;
  }
  // Full table (more distinct texts than planned): let the caller fingerprint.
  return true;
}
