/**
 * HTML to plain text for fingerprinting: drops tags, comments, <script>/<style>/<template>
 * contents and decodes character references. Pure and linear-time (no backtracking regex over
 * unclosed elements), so a hostile or huge page cannot stall a worker.
 */

const RAW_TEXT_CLOSERS: Record<string, RegExp> = {
  script: /<\/script\s*>/gi,
  style: /<\/style\s*>/gi,
  template: /<\/template\s*>/gi,
  noscript: /<\/noscript\s*>/gi,
  textarea: /<\/textarea\s*>/gi,
};

/** The named character references decoded (others are left as written). */
export const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', copy: '©', reg: '®',
  hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”',
  laquo: '«', raquo: '»', middot: '·', bull: '•', eacute: 'é', egrave: 'è', agrave: 'à',
  uuml: 'ü', ouml: 'ö', auml: 'ä', szlig: 'ß', ccedil: 'ç', euro: '€', trade: '™',
};

const ENTITY = /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/g;
/** Longest raw-text element name (noscript, template, textarea): a longer tag name is none of them. */
const LONGEST_RAW_TEXT_NAME = 8;

/**
 * The end-tag pattern of the raw-text element whose start tag's name begins at `start` (just after
 * `<`), or undefined for any other element. The name is [a-zA-Z][a-zA-Z0-9-]*, read in place: no
 * string is made for the many tags that are not raw text (this runs once per tag of every page).
 */
function rawTextCloser(html: string, start: number): RegExp | undefined {
  let end = start;
  const limit = Math.min(html.length, start + LONGEST_RAW_TEXT_NAME + 1);
  while (end < limit) {
    const c = html.charCodeAt(end);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 /* - */) end++;
    else break;
  }
  const length = end - start;
  if (length < 5 || length > LONGEST_RAW_TEXT_NAME) return undefined;
  const name = html.slice(start, end).toLowerCase();
  return Object.hasOwn(RAW_TEXT_CLOSERS, name) ? RAW_TEXT_CLOSERS[name] : undefined;
}

/** Decodes HTML character references; unknown named references are left as written. */
export function decodeEntities(text: string): string {
  if (text.indexOf('&') < 0) return text;
  return text.replace(ENTITY, (whole, body: string) => {
    if (body.charCodeAt(0) === 35 /* # */) {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
      return String.fromCodePoint(code);
    }
    // Own names only: '&constructor;' is text, not Object.prototype's function.
    if (Object.hasOwn(NAMED_ENTITIES, body)) return NAMED_ENTITIES[body];
    const lower = body.toLowerCase();
    return Object.hasOwn(NAMED_ENTITIES, lower) ? NAMED_ENTITIES[lower] : whole;
  });
}

/**
 * Returns the visible text of an HTML document: every tag becomes a space (so words on either
 * side of `<br>` or `</p><p>` stay apart), script/style/template bodies and comments vanish, and
 * character references are decoded.
 */
export function stripHtml(html: string): string {
  const parts: string[] = [];
  const n = html.length;
  let textStart = 0;
  let i = html.indexOf('<');
  while (i >= 0 && i < n) {
    const next = html.charCodeAt(i + 1);
    let end: number;
    if (html.startsWith('<!--', i)) {
      const close = html.indexOf('-->', i + 4);
      end = close < 0 ? n : close + 3;
    } else if (next === 33 /* ! */ || next === 63 /* ? */) {
      const close = html.indexOf('>', i + 2);
      end = close < 0 ? n : close + 1;
    } else if ((next >= 65 && next <= 90) || (next >= 97 && next <= 122) || next === 47 /* / */) {
      const close = html.indexOf('>', i + 1);
      end = close < 0 ? n : close + 1;
      const closer = next === 47 ? undefined : rawTextCloser(html, i + 1);
      if (closer) {
        // The element's body is raw text (code, CSS): skip to its end tag, or the end of the file.
        closer.lastIndex = end;
        const m = closer.exec(html);
        end = m ? m.index + m[0].length : n;
      }
    } else {
      // A '<' that opens no tag ("a < b") is text.
      i = html.indexOf('<', i + 1);
      continue;
    }
    if (i > textStart) parts.push(html.slice(textStart, i));
    parts.push(' ');
    textStart = end;
    i = end >= n ? -1 : html.indexOf('<', end);
  }
  if (textStart < n) parts.push(html.slice(textStart));
  return decodeEntities(parts.join(''));
}

/**
 * A page's stripped text as a person reads it: the markup's indentation and line breaks leave runs of
 * blank lines (a navigation page showed one title in a screen of whitespace), so trailing spaces go
 * and blank runs shrink to one blank line. Only whitespace next to a line break is removed, so the
 * words and the features are those of `text`.
 */
export function readableHtmlText(text: string): string {
  return text.replace(/[^\S\n]+(?=\n)/g, '').replace(/\n{3,}/g, '\n\n').replace(/^\s+/, '');
}

/** True when a file name is an HTML page whose markup should be stripped before fingerprinting. */
export function isHtmlName(name: string): boolean {
  return /\.(html?|xhtml)$/i.test(name);
}
