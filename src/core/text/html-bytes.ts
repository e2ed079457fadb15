/** The fast path's HTML at the byte level: tags, comments, raw-text bodies and character references, by stripHtml's rules. */
import { NAMED_ENTITIES } from './html.ts';

/** Result of the fast path and of its HTML scanners: use the string path. */
export const FALLBACK = -1;

/** ASCII bytes lowercased (A-Z to a-z), the rest unchanged. */
export const LOWER = new Uint8Array(128);
for (let b = 0; b < 128; b++) LOWER[b] = b >= 0x41 && b <= 0x5a ? b + 32 : b;

/** Raw-text elements (their bodies are not text), as html.ts knows them: lowercase ASCII names. */
const RAW_TEXT_NAMES = ['script', 'style', 'template', 'noscript', 'textarea'].map((s) => new TextEncoder().encode(s));

/**
 * Where the tag, comment or declaration starting with the '<' at `i` ends (stripHtml's rules:
 * raw-text bodies included), -1 when that '<' opens none (it is text), FALLBACK when a closing
 * raw-text tag may hold a non-ASCII space (the regex's \s).
 */
export function tagEnd(s: Uint8Array, i: number): number {
  const n = s.length;
  const next = i + 1 < n ? s[i + 1] : -1;
  if (next === 0x21 /* ! */ && s[i + 2] === 0x2d && s[i + 3] === 0x2d && i + 3 < n) {
    const close = indexOf3(s, 0x2d, 0x2d, 0x3e, i + 4);
    return close < 0 ? n : close + 3;
  }
  if (next === 0x21 || next === 0x3f /* ? */) {
    const close = s.indexOf(0x3e, i + 2);
    return close < 0 ? n : close + 1;
  }
  const letter = (next >= 0x41 && next <= 0x5a) || (next >= 0x61 && next <= 0x7a);
  if (!letter && next !== 0x2f /* / */) return -1;
  const close = s.indexOf(0x3e, i + 1);
  const end = close < 0 ? n : close + 1;
  if (next === 0x2f) return end;
  const raw = rawTextName(s, i + 1);
  if (raw < 0) return end;
  return rawTextEnd(s, RAW_TEXT_NAMES[raw], end);
}

/** True when s[from, to) is well-formed UTF-8 (TextDecoder's rule; the range never splits a sequence: it ends at '>' or the input's end). */
export function validUtf8(s: Uint8Array, from: number, to: number): boolean {
  let i = from;
  while (i < to) {
    const b = s[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lower = 0x80;
    let upper = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lower = 0xa0;
      if (b === 0xed) upper = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lower = 0x90;
      if (b === 0xf4) upper = 0x8f;
    } else return false;
    if (i + need >= to) return false;
    const c1 = s[i + 1];
    if (c1 < lower || c1 > upper) return false;
    for (let k = 2; k <= need; k++) if ((s[i + k] & 0xc0) !== 0x80) return false;
    i += need + 1;
  }
  return true;
}

/** First index >= from of the three bytes a b c in a row, or -1. */
function indexOf3(s: Uint8Array, a: number, b: number, c: number, from: number): number {
  for (let at = s.indexOf(a, from); at >= 0 && at + 2 < s.length; at = s.indexOf(a, at + 1)) {
    if (s[at + 1] === b && s[at + 2] === c) return at;
  }
  return -1;
}

/** The raw-text element (index into RAW_TEXT_NAMES) whose name starts at `start`, or -1 (html.ts rawTextCloser's rule). */
function rawTextName(s: Uint8Array, start: number): number {
  let end = start;
  const limit = Math.min(s.length, start + 9);
  while (end < limit) {
    const c = s[end];
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45) end++;
    else break;
  }
  const length = end - start;
  if (length < 5 || length > 8) return -1;
  for (let r = 0; r < RAW_TEXT_NAMES.length; r++) {
    const name = RAW_TEXT_NAMES[r];
    if (name.length !== length) continue;
    let k = 0;
    while (k < length && LOWER[s[start + k]] === name[k]) k++;
    if (k === length) return r;
  }
  return -1;
}

/** JavaScript's \s among ASCII bytes: tab, LF, VT, FF, CR, space. */
function isAsciiSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** The end of the first `</name\s*>` (ASCII case-insensitive) at or after `from`, or the input's end; FALLBACK where \s may be non-ASCII. */
function rawTextEnd(s: Uint8Array, name: Uint8Array, from: number): number {
  const n = s.length;
  for (let at = s.indexOf(0x3c, from); at >= 0; at = s.indexOf(0x3c, at + 1)) {
    if (s[at + 1] !== 0x2f) continue;
    let k = 0;
    while (k < name.length && at + 2 + k < n && LOWER[s[at + 2 + k] & 0x7f] === name[k] && s[at + 2 + k] < 0x80) k++;
    if (k < name.length) continue;
    let j = at + 2 + name.length;
    while (j < n && isAsciiSpace(s[j])) j++;
    if (j < n && s[j] === 0x3e) return j + 1;
    if (j < n && s[j] >= 0x80) return FALLBACK;
  }
  return n;
}

/** Where the reference that entityAt decoded ends (a module variable: no object per reference). */
export let entityEnd = 0;
/**
 * NAMED_ENTITIES by their name packed into a number (a byte per 7 bits): html.ts looks a name up as
 * written, then lowercased; its names are all lowercase, so the lowercased name's key finds the same.
 */
const ENTITY_BY_KEY = new Map<number, number>();
let longestEntityName = 0;
for (const [name, value] of Object.entries(NAMED_ENTITIES)) {
  if (name !== name.toLowerCase() || value.length !== 1) throw new Error(`html.ts entity '${name}' breaks normalized-utf8's lookup`);
  let key = 0;
  for (let k = name.length - 1; k >= 0; k--) key = key * 128 + name.charCodeAt(k);
  ENTITY_BY_KEY.set(key, value.charCodeAt(0));
  longestEntityName = Math.max(longestEntityName, name.length);
}

/**
 * The code point of the character reference at `i` (an '&') as html.ts decodes it, setting
 * entityEnd; -1 when html.ts would leave the text as written (no reference, or an unknown name).
 * The pattern: &#[0-9]{1,7}; | &#[xX][0-9a-fA-F]{1,6}; | &[a-zA-Z][a-zA-Z0-9]{1,31};
 */
export function entityAt(s: Uint8Array, i: number): number {
  const n = s.length;
  let j = i + 1;
  if (j >= n) return -1;
  if (s[j] === 0x23 /* # */) {
    j++;
    const hex = j < n && (s[j] === 0x78 || s[j] === 0x58);
    if (hex) j++;
    const digitsStart = j;
    let code = 0;
    while (j < n) {
      const c = s[j];
      let d: number;
      if (c >= 0x30 && c <= 0x39) d = c - 0x30;
      else if (hex && c >= 0x61 && c <= 0x66) d = c - 0x57;
      else if (hex && c >= 0x41 && c <= 0x46) d = c - 0x37;
      else break;
      code = code * (hex ? 16 : 10) + d;
      j++;
    }
    const digits = j - digitsStart;
    if (digits < 1 || digits > (hex ? 6 : 7) || j >= n || s[j] !== 0x3b /* ; */) return -1;
    entityEnd = j + 1;
    if (code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return 0xfffd;
    return code;
  }
  const first = s[j];
  if (!((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a))) return -1;
  while (j < n) {
    const c = s[j];
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) j++;
    else break;
  }
  const length = j - i - 1;
  if (length < 2 || length > 32 || j >= n || s[j] !== 0x3b) return -1;
  if (length > longestEntityName) return -1;
  let key = 0;
  for (let k = j - 1; k > i; k--) key = key * 128 + LOWER[s[k]];
  const code = ENTITY_BY_KEY.get(key);
  if (code === undefined) return -1;
  entityEnd = j + 1;
  return code;
}
