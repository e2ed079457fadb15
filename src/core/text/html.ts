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

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', copy: '©', reg: '®',
  hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”',
  laquo: '«', raquo: '»', middot: '·', bull: '•', eacute: 'é', egrave: 'è', agrave: 'à',
  uuml: 'ü', ouml: 'ö', auml: 'ä', szlig: 'ß', ccedil: 'ç', euro: '€', trade: '™',
};

const ENTITY = /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/g;
const TAG_NAME = /^<\/?([a-zA-Z][a-zA-Z0-9-]*)/;

/** Decodes HTML character references; unknown named references are left as written. */
export function decodeEntities(text: string): string {
  if (text.indexOf('&') < 0) return text;
  return text.replace(ENTITY, (whole, body: string) => {
    if (body.charCodeAt(0) === 35 /* # */) {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
      return String.fromCodePoint(code);
    }
    return NAMED_ENTITIES[body] ?? NAMED_ENTITIES[body.toLowerCase()] ?? whole;
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
      const name = TAG_NAME.exec(html.slice(i, Math.min(n, i + 40)));
      if (name && next !== 47) {
        const closer = RAW_TEXT_CLOSERS[name[1].toLowerCase()];
        if (closer) {
          // The element's body is raw text (code, CSS): skip to its end tag, or the end of the file.
          closer.lastIndex = end;
          const m = closer.exec(html);
          end = m ? m.index + m[0].length : n;
        }
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

/** True when a file name is an HTML page whose markup should be stripped before fingerprinting. */
export function isHtmlName(name: string): boolean {
  return /\.(html?|xhtml)$/i.test(name);
}
