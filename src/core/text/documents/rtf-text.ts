/**
 * The text of an RTF document, by a small parser (no well-kept JavaScript RTF library exists): groups,
 * control words and symbols, `\'hh` bytes in the document's code page (`\ansicpg`), `\uN` with its
 * `\ucN` fallback skipped, and the destinations that are not running text (font and colour tables,
 * style sheet, document info, pictures, headers, footers, footnotes, field instructions, anything
 * marked `\*`) skipped. `\par` and `\line` become newlines. Group nesting is bounded.
 */
import { decodeWindows1252 } from '../decode.ts';
import { ExtractionError, type ExtractionLimits } from './extraction.ts';

const SKIPPED_DESTINATIONS = new Set([
  'fonttbl', 'colortbl', 'stylesheet', 'info', 'pict', 'object', 'header', 'headerl', 'headerr', 'headerf', 'footer', 'footerl',
  'footerr', 'footerf', 'footnote', 'fldinst', 'themedata', 'colorschememapping', 'latentstyles', 'datastore', 'xmlnstbl', 'listtable',
  'listoverridetable', 'rsidtbl', 'generator', 'filetbl', 'revtbl', 'pgdsctbl', 'annotation', 'atnid', 'atnauthor', 'bkmkstart', 'bkmkend',
  'xe', 'tc', 'txe', 'private', 'nonshppict', 'shpinst', 'userprops', 'docvar', 'template', 'mmathPr', 'listtext', 'pntext', 'pntxta', 'pntxtb',
]);

const SYMBOLS: Record<string, string> = {
  par: '\n', line: '\n', sect: '\n', page: '\n', row: '\n', tab: '\t', cell: '\t', emdash: '\u2014', endash: '\u2013', bullet: '\u2022',
  lquote: '\u2018', rquote: '\u2019', ldblquote: '\u201C', rdblquote: '\u201D', emspace: ' ', enspace: ' ', qmspace: ' ',
};

function isLetter(b: number): boolean {
  return (b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a);
}

/** Decodes the bytes of `\'hh` escapes in code page `codepage`. */
function decodeCodepage(bytes: number[], codepage: number): string {
  const array = Uint8Array.from(bytes);
  if (codepage === 1252 || codepage === 0) return decodeWindows1252(array);
  try {
    return new TextDecoder(codepage === 65001 ? 'utf-8' : `windows-${codepage}`).decode(array);
  } catch {
    return decodeWindows1252(array);
  }
}

/** The running text of an RTF file. */
export function rtfText(bytes: Uint8Array, limits: ExtractionLimits): string {
  const out: string[] = [];
  let pendingBytes: number[] = [];
  let codepage = 1252;
  // Per group: skipping (a destination that is not text) and \uc (fallback characters after \uN).
  const skipStack: boolean[] = [];
  const ucStack: number[] = [];
  let skip = false;
  let uc = 1;
  let fallback = 0; // characters still to drop after a \uN
  let sawRtf = false;
  const flush = () => {
    if (pendingBytes.length) {
      if (!skip) out.push(decodeCodepage(pendingBytes, codepage));
      pendingBytes = [];
    }
  };
  const emit = (text: string) => {
    flush();
    if (!skip) out.push(text);
  };
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i]!;
    if (b === 0x7b /* { */) {
      flush();
      if (skipStack.length >= limits.maxRtfDepth) throw new ExtractionError('over-limit', `RTF groups nested deeper than ${limits.maxRtfDepth}`);
      skipStack.push(skip);
      ucStack.push(uc);
      fallback = 0;
      i++;
      // "{\*\dest" is a destination a reader that does not know it must skip.
      if (bytes[i] === 0x5c && bytes[i + 1] === 0x2a) {
        skip = true;
        i += 2;
      }
      continue;
    }
    if (b === 0x7d /* } */) {
      flush();
      if (skipStack.length === 0) break; // the document's closing brace (or a stray one): the end
      skip = skipStack.pop()!;
      uc = ucStack.pop()!;
      fallback = 0;
      i++;
      continue;
    }
    if (b === 0x0d || b === 0x0a) {
      i++;
      continue;
    }
    if (b !== 0x5c /* \ */) {
      if (fallback > 0) fallback--;
      else pendingBytes.push(b);
      i++;
      continue;
    }
    // A control word or symbol.
    const c = bytes[i + 1];
    if (c === undefined) break;
    if (!isLetter(c)) {
      i += 2;
      if (c === 0x27 /* ' */) {
        const hex = parseInt(String.fromCharCode(bytes[i] ?? 0, bytes[i + 1] ?? 0), 16);
        i += 2;
        if (fallback > 0) fallback--;
        else if (!Number.isNaN(hex)) pendingBytes.push(hex);
        continue;
      }
      if (fallback > 0) {
        fallback--;
        continue;
      }
      if (c === 0x5c || c === 0x7b || c === 0x7d) pendingBytes.push(c);
      else if (c === 0x7e /* ~ */) emit('\u00A0');
      else if (c === 0x5f /* _ */) emit('-');
      else if (c === 0x0a || c === 0x0d) emit('\n');
      continue;
    }
    let j = i + 1;
    while (j < n && isLetter(bytes[j]!)) j++;
    const word = String.fromCharCode(...bytes.subarray(i + 1, j));
    let k = j;
    if (bytes[k] === 0x2d /* - */) k++;
    while (k < n && bytes[k]! >= 0x30 && bytes[k]! <= 0x39) k++;
    const param = k > j ? Number(String.fromCharCode(...bytes.subarray(j, k))) : null;
    i = bytes[k] === 0x20 ? k + 1 : k;
    if (word === 'rtf') sawRtf = true;
    if (word === 'bin' && param !== null && param > 0) {
      i += param;
      continue;
    }
    if (fallback > 0) {
      fallback--;
      continue;
    }
    if (word === 'u' && param !== null) {
      flush();
      if (!skip) out.push(String.fromCharCode(param < 0 ? param + 65536 : param));
      fallback = uc;
    } else if (word === 'uc' && param !== null) uc = param;
    else if (word === 'ansicpg' && param !== null) codepage = param;
    else if (SKIPPED_DESTINATIONS.has(word)) {
      flush();
      skip = true;
    } else if (word in SYMBOLS) emit(SYMBOLS[word]!);
  }
  flush();
  if (!sawRtf) throw new ExtractionError('damaged', 'not an RTF document');
  return out.join('');
}
