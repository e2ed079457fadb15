/** English stop words looked up by their UTF-8 bytes in place, for the fingerprinter's tokenizers. */
import { ENGLISH_STOP_WORDS } from '../text/stop-words.ts';

const encoder = new TextEncoder();

/** Stop words as a byte-keyed open-addressing table (FNV-1a of the token bytes), so lookups allocate nothing. */
const STOP_CAPACITY = 1024;
const STOP_MAX_LEN = 16;
const stopSlots = new Int32Array(STOP_CAPACITY).fill(-1);
const stopBytes: Uint8Array[] = [];
function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}
for (const word of ENGLISH_STOP_WORDS) {
  const bytes = encoder.encode(word);
  let slot = fnv1a(bytes, 0, bytes.length) & (STOP_CAPACITY - 1);
  while (stopSlots[slot] !== -1) slot = (slot + 1) & (STOP_CAPACITY - 1);
  stopSlots[slot] = stopBytes.length;
  stopBytes.push(bytes);
}
/** Whether bytes[start, end) are the UTF-8 of an English stop word (allocates nothing). */
export function isStopWordBytes(bytes: Uint8Array, start: number, end: number): boolean {
  const len = end - start;
  if (len > STOP_MAX_LEN) return false;
  let slot = fnv1a(bytes, start, end) & (STOP_CAPACITY - 1);
  for (;;) {
    const idx = stopSlots[slot];
    if (idx === -1) return false;
    const word = stopBytes[idx];
    if (word.length === len) {
      let same = true;
      for (let i = 0; i < len; i++) {
        if (word[i] !== bytes[start + i]) {
          same = false;
          break;
        }
      }
      if (same) return true;
    }
    slot = (slot + 1) & (STOP_CAPACITY - 1);
  }
}
