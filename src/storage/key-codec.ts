/**
 * The key codec: the only place where fingerprints (bigint or hi/lo halves) become storage bytes and
 * back. Bytes are big-endian, so IndexedDB's byte-wise key order equals the numeric order.
 * Also the searches over sorted ids and record keys the repositories share.
 */
import type { Fingerprint64 } from '../core/simhash/fingerprint64.ts';
import { fromHalves, hiOf, loOf } from '../core/simhash/fingerprint64.ts';

/** Bytes per encoded fingerprint. */
export const FINGERPRINT_BYTES = 8;

/** Encodes one fingerprint given as halves into an 8-byte big-endian key. */
export function halvesToKey(hi: number, lo: number): ArrayBuffer {
  const buffer = new ArrayBuffer(FINGERPRINT_BYTES);
  const view = new DataView(buffer);
  view.setUint32(0, hi >>> 0, false);
  view.setUint32(4, lo >>> 0, false);
  return buffer;
}

/** Decodes an 8-byte big-endian key into halves; throws a RangeError on any other length. */
export function keyToHalves(key: ArrayBuffer | ArrayBufferView): { hi: number; lo: number } {
  const view = asView(key);
  if (view.byteLength !== FINGERPRINT_BYTES) {
    throw new RangeError(`a fingerprint key has ${FINGERPRINT_BYTES} bytes, got ${view.byteLength}`);
  }
  return { hi: view.getUint32(0, false), lo: view.getUint32(4, false) };
}

/** Encodes a bigint fingerprint into an 8-byte big-endian key. */
export function fingerprintToKey(fingerprint: Fingerprint64): ArrayBuffer {
  return halvesToKey(hiOf(fingerprint), loOf(fingerprint));
}

/** Decodes an 8-byte big-endian key into a bigint fingerprint. */
export function keyToFingerprint(key: ArrayBuffer | ArrayBufferView): Fingerprint64 {
  const { hi, lo } = keyToHalves(key);
  return fromHalves(hi, lo);
}

/** Encodes parallel hi/lo arrays into one buffer of 8-byte big-endian keys (document i at 8*i). */
export function halvesToKeyBytes(hi: Uint32Array, lo: Uint32Array, count = hi.length): ArrayBuffer {
  if (hi.length < count || lo.length < count) throw new RangeError('hi and lo must hold count entries');
  const buffer = new ArrayBuffer(count * FINGERPRINT_BYTES);
  const view = new DataView(buffer);
  for (let i = 0; i < count; i++) {
    view.setUint32(i * 8, hi[i]!, false);
    view.setUint32(i * 8 + 4, lo[i]!, false);
  }
  return buffer;
}

/**
 * Decodes a buffer of 8-byte big-endian keys into `hi`/`lo` starting at `offset`; returns the count.
 * Throws a RangeError when the byte length is not a multiple of 8 or the targets are too short.
 */
export function keyBytesToHalves(
  bytes: ArrayBuffer | ArrayBufferView,
  hi: Uint32Array,
  lo: Uint32Array,
  offset = 0,
): number {
  const view = asView(bytes);
  if (view.byteLength % FINGERPRINT_BYTES !== 0) {
    throw new RangeError(`fingerprint bytes must be a multiple of ${FINGERPRINT_BYTES}, got ${view.byteLength}`);
  }
  const count = view.byteLength / FINGERPRINT_BYTES;
  if (offset + count > hi.length || offset + count > lo.length) throw new RangeError('hi/lo too short');
  for (let i = 0; i < count; i++) {
    hi[offset + i] = view.getUint32(i * 8, false);
    lo[offset + i] = view.getUint32(i * 8 + 4, false);
  }
  return count;
}

function asView(source: ArrayBuffer | ArrayBufferView): DataView {
  return ArrayBuffer.isView(source)
    ? new DataView(source.buffer, source.byteOffset, source.byteLength)
    : new DataView(source);
}

/** The greatest of the ascending `sortedKeys` that is at most `id` (records keyed by their first id). */
export function lastKeyAtMost(sortedKeys: readonly number[], id: number): number | undefined {
  let lo = 0;
  let hi = sortedKeys.length - 1;
  let found: number | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (sortedKeys[mid]! <= id) {
      found = sortedKeys[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Position of `id` in the ascending `ids`, or -1. */
export function indexOfSorted(ids: Uint32Array, id: number): number {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = ids[mid]!;
    if (v === id) return mid;
    if (v < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** Groups `ids` by the record holding each (the greatest of the ascending `sortedKeys` at most the id); ids before every key are left out. */
export function idsByRecord(sortedKeys: readonly number[], ids: Iterable<number>): Map<number, Set<number>> {
  const out = new Map<number, Set<number>>();
  for (const id of ids) {
    const key = lastKeyAtMost(sortedKeys, id);
    if (key === undefined) continue;
    const set = out.get(key) ?? new Set<number>();
    out.set(key, set);
    set.add(id);
  }
  return out;
}
