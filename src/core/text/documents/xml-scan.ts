/**
 * A small, iterative XML scanner for the parts of DOCX, ODT and EPUB files: it reports start tags,
 * end tags and text (entities decoded) to a handler, and stops at a nesting depth limit. No
 * recursion, so a deeply nested file cannot overflow the stack; no DTD, so no entity expansion
 * (the "billion laughs" attack needs a DTD this scanner never reads).
 */

/** Callbacks of `scanXml`; `attrs` is the raw attribute text of a start tag (read it with `attribute`). */
export interface XmlHandler {
  open(name: string, attrs: string, selfClosing: boolean): void;
  close(name: string): void;
  text(text: string): void;
}

/** Why a scan stopped early. */
export class XmlLimitError extends Error {}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes XML's five named entities and numeric character references (others are left as written). */
export function decodeXmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const cp = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) ? String.fromCodePoint(cp) : '\uFFFD';
    }
    return NAMED[ref] ?? whole;
  });
}

/** The value of attribute `name` in a start tag's raw attribute text, entities decoded; null when absent. */
export function attribute(attrs: string, name: string): string | null {
  const re = new RegExp(`(?:^|\\s)${name.replace(/[.:]/g, '\\$&')}\\s*=\\s*("([^"]*)"|'([^']*)')`);
  const m = re.exec(attrs);
  return m ? decodeXmlEntities(m[2] ?? m[3] ?? '') : null;
}

/**
 * Scans `xml`, calling `handler` for each tag and text run (CDATA is text; comments, processing
 * instructions and declarations are skipped). Throws XmlLimitError when elements nest deeper than
 * `maxDepth`. Tolerant: an unclosed tag at the end ends the scan.
 */
export function scanXml(xml: string, handler: XmlHandler, maxDepth: number): void {
  const n = xml.length;
  let depth = 0;
  let i = 0;
  while (i < n) {
    const lt = xml.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i) handler.text(decodeXmlEntities(xml.slice(i, textEnd)));
    if (lt < 0) return;
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt + 4);
      i = end < 0 ? n : end + 3;
    } else if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt + 9);
      handler.text(xml.slice(lt + 9, end < 0 ? n : end));
      i = end < 0 ? n : end + 3;
    } else if (xml[lt + 1] === '?' || xml[lt + 1] === '!') {
      const end = xml.indexOf('>', lt + 2);
      i = end < 0 ? n : end + 1;
    } else {
      const end = xml.indexOf('>', lt + 1);
      if (end < 0) return;
      i = end + 1;
      if (xml[lt + 1] === '/') {
        handler.close(xml.slice(lt + 2, end).trim());
        depth = Math.max(0, depth - 1);
        continue;
      }
      const selfClosing = xml[end - 1] === '/';
      const body = xml.slice(lt + 1, selfClosing ? end - 1 : end);
      const space = body.search(/\s/);
      const name = space < 0 ? body : body.slice(0, space);
      if (!selfClosing && ++depth > maxDepth) throw new XmlLimitError(`XML nested deeper than ${maxDepth} elements`);
      handler.open(name, space < 0 ? '' : body.slice(space), selfClosing);
    }
  }
}
