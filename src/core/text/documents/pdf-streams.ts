/**
 * A PDF's Flate streams counted against the document's inflation budget before pdf.js reads it: a
 * content stream of 1 MB can inflate to hundreds (pdf.js would decode it whole and run out of heap),
 * so a PDF, like a zip, stops at `limits.maxInflatedBytes`. Image streams are not counted (text
 * extraction never decodes them). Loaded with the PDF extractor only.
 */
import { Unzlib } from 'fflate';
import { createInflationBudget, ExtractionError, type ExtractionLimits } from './extraction.ts';

const STREAM = [0x73, 0x74, 0x72, 0x65, 0x61, 0x6d]; // stream
const ENDSTREAM = [0x65, 0x6e, 0x64, 0x73, 0x74, 0x72, 0x65, 0x61, 0x6d]; // endstream
/** How far before `stream` its dictionary is looked for (`/Subtype/Image`). */
const DICTIONARY_BYTES = 2048;
const latin1 = new TextDecoder('latin1');

function matchesAt(bytes: Uint8Array, at: number, word: readonly number[]): boolean {
  if (at + word.length > bytes.length) return false;
  for (let i = 0; i < word.length; i++) if (bytes[at + i] !== word[i]) return false;
  return true;
}

/** Where `word` next occurs at or after `from`, or -1. */
function find(bytes: Uint8Array, word: readonly number[], from: number): number {
  for (let at = bytes.indexOf(word[0]!, from); at >= 0; at = bytes.indexOf(word[0]!, at + 1)) if (matchesAt(bytes, at, word)) return at;
  return -1;
}

/** True for the two bytes of a zlib header (deflate, a valid check value): a FlateDecode stream starts so. */
function isZlibHeader(bytes: Uint8Array, at: number): boolean {
  return at + 1 < bytes.length && (bytes[at]! & 0x0f) === 8 && ((bytes[at]! << 8) | bytes[at + 1]!) % 31 === 0;
}

/** `N G obj` before a stream: the stream's object number and generation, the key its references use. */
const OBJECT_HEADER = /(\d+)\s+(\d+)\s+obj\b/g;
/** `N G R`: a reference to an object. */
const REFERENCE = /(\d+)\s+(\d+)\s+R\b/g;

/**
 * Inflates each Flate stream of the PDF (those that are not images), counting the bytes against the
 * budget; throws ExtractionError 'over-limit' once past it. A stream that does not inflate is left for
 * pdf.js to judge (it may be damaged and the rest of the document fine). pdf.js decodes a stream each
 * time a page uses it, so a stream referenced from several places (three pages sharing one 60 MB
 * content stream) counts once per reference, the references read from the file and from its object
 * streams alike.
 */
export function checkPdfInflation(bytes: Uint8Array, limits: ExtractionLimits): void {
  const budget = createInflationBudget(limits, 'PDF');
  // Decoded bytes of each stream object (not images) by `N G`, and the text of object streams, where references also live.
  const decoded = new Map<string, number>();
  const objectStreams: string[] = [];
  let at = 0;
  for (;;) {
    const keyword = find(bytes, STREAM, at);
    if (keyword < 0) break;
    at = keyword + STREAM.length;
    // `stream` is followed by CR LF or LF; `endstream` is found by the search for `stream`'s start only after it.
    if (keyword >= 3 && matchesAt(bytes, keyword - 3, ENDSTREAM)) continue;
    let start = at;
    if (bytes[start] === 0x0d) start++;
    if (bytes[start] !== 0x0a) continue;
    start++;
    const dictionary = latin1.decode(bytes.subarray(Math.max(0, keyword - DICTIONARY_BYTES), keyword));
    const end = find(bytes, ENDSTREAM, start);
    const stop = end < 0 ? bytes.length : end;
    at = stop;
    const own = dictionary.slice(dictionary.lastIndexOf('obj'));
    if (/\/Subtype\s*\/Image\b/.test(own)) continue;
    const header = [...dictionary.matchAll(OBJECT_HEADER)].at(-1);
    const key = header ? `${header[1]} ${header[2]}` : null;
    if (!isZlibHeader(bytes, start)) {
      if (key) decoded.set(key, stop - start);
      continue;
    }
    const keep = /\/Type\s*\/ObjStm\b/.test(own) ? ([] as Uint8Array[]) : null;
    let size = 0;
    const inflater = new Unzlib((chunk) => {
      budget.count(chunk.length);
      size += chunk.length;
      keep?.push(chunk);
    });
    try {
      const STEP = 64 * 1024;
      for (let from = start; from < stop; from += STEP) inflater.push(bytes.subarray(from, Math.min(stop, from + STEP)), from + STEP >= stop);
    } catch (error) {
      if (error instanceof ExtractionError) throw error;
    }
    if (key) decoded.set(key, size);
    if (keep) objectStreams.push(keep.map((c) => latin1.decode(c)).join(''));
  }
  if (decoded.size === 0) return;
  // Each use past the first decodes the stream again.
  const uses = new Map<string, number>();
  for (const text of [latin1.decode(bytes), ...objectStreams]) {
    for (const m of text.matchAll(REFERENCE)) {
      const key = `${m[1]} ${m[2]}`;
      const size = decoded.get(key);
      if (size === undefined) continue;
      const n = (uses.get(key) ?? 0) + 1;
      uses.set(key, n);
      if (n > 1) budget.count(size);
    }
  }
}
