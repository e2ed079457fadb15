/**
 * The text of the zip-based documents: Word (DOCX: word/document.xml), OpenDocument text (ODT:
 * content.xml) and EPUB (the XHTML files of its spine, in reading order). Paragraphs and line breaks
 * become newlines. Headers, footers, footnotes, comments, deleted text and field codes live in other
 * parts or elements and are not read, so nothing repeats per page. Every byte inflated counts
 * against one budget (a zip bomb stops there), and XML nesting is bounded (xml-scan.ts).
 * Loaded lazily (with fflate) the first time such a document appears.
 */
import { Inflate } from 'fflate';
import { entryData, listZipEntries, type ZipEntry } from './zip-container.ts';
import { attribute, scanXml, XmlLimitError, type XmlHandler } from './xml-scan.ts';
import { createDeadline, createInflationBudget, ExtractionError, type ExtractionLimits } from './extraction.ts';

const utf8 = new TextDecoder('utf-8');

/** A zip opened for reading with a shared inflation budget. */
class ZipReader {
  readonly byName = new Map<string, ZipEntry>();
  readonly budget: { count(bytes: number): void };

  constructor(
    private readonly bytes: Uint8Array,
    limits: ExtractionLimits,
  ) {
    this.budget = createInflationBudget(limits, 'zip');
    const listing = listZipEntries(bytes, limits.maxZipEntries);
    if (!listing.ok) throw new ExtractionError(listing.message.includes('more than') ? 'over-limit' : 'damaged', listing.message);
    for (const entry of listing.entries) this.byName.set(entry.name, entry);
  }

  /** An entry's text (UTF-8), inflated within the budget; null when the entry is missing. */
  text(name: string): string | null {
    const entry = this.byName.get(name);
    if (!entry) return null;
    if (entry.encrypted) throw new ExtractionError('encrypted', `the zip entry ${name} is encrypted`);
    const data = entryData(this.bytes, entry);
    if (!data) throw new ExtractionError('damaged', `the zip entry ${name} is damaged`);
    if (entry.method === 0) {
      this.budget.count(data.length);
      return utf8.decode(data);
    }
    if (entry.method !== 8) throw new ExtractionError('damaged', `the zip entry ${name} uses compression method ${entry.method}`);
    return this.inflate(data, name);
  }

  /**
   * Inflates in 64 KB input steps and decodes the UTF-8 as it comes, so a bomb is stopped as soon as
   * its output passes the budget and no inflated copy is held beside the text.
   */
  private inflate(data: Uint8Array, name: string): string {
    const decoder = new TextDecoder('utf-8');
    const parts: string[] = [];
    const inflater = new Inflate((chunk, final) => {
      this.budget.count(chunk.length);
      parts.push(decoder.decode(chunk, { stream: !final }));
    });
    try {
      const STEP = 64 * 1024;
      for (let at = 0; at < data.length; at += STEP) inflater.push(data.subarray(at, Math.min(data.length, at + STEP)), at + STEP >= data.length);
      if (data.length === 0) inflater.push(data, true);
    } catch (error) {
      if (error instanceof ExtractionError) throw error;
      throw new ExtractionError('damaged', `the zip entry ${name} does not inflate (${error instanceof Error ? error.message : String(error)})`);
    }
    parts.push(decoder.decode());
    return parts.join('');
  }
}

/** Runs `scanXml`, turning a depth overrun into an 'over-limit' skip. */
function scan(xml: string, handler: XmlHandler, limits: ExtractionLimits): void {
  try {
    scanXml(xml, handler, limits.maxXmlDepth);
  } catch (error) {
    if (error instanceof XmlLimitError) throw new ExtractionError('over-limit', error.message);
    throw error;
  }
}

/** Collects text, skipping the subtrees of the elements in `skip`. */
function textCollector(skip: ReadonlySet<string>) {
  const parts: string[] = [];
  let skipping = 0;
  return {
    parts,
    get skipping() {
      return skipping > 0;
    },
    /** Call on every start tag; true when the element is inside (or is) a skipped subtree. */
    enter(name: string, selfClosing: boolean): boolean {
      if (skipping > 0) {
        if (!selfClosing) skipping++;
        return true;
      }
      if (skip.has(name)) {
        if (!selfClosing) skipping = 1;
        return true;
      }
      return false;
    },
    /** Call on every end tag; true when it closes an element inside (or is) a skipped subtree. */
    leave(): boolean {
      if (skipping > 0) {
        skipping--;
        return true;
      }
      return false;
    },
  };
}

// DOCX: text is in w:t; field codes (w:instrText), deleted text and the fallback copy of drawings are not the document's text.
const DOCX_SKIP = new Set(['w:instrText', 'w:delText', 'w:delInstrText', 'mc:Fallback', 'w:footnoteReference', 'w:endnoteReference']);

/** The text of word/document.xml. */
export function docxText(bytes: Uint8Array, limits: ExtractionLimits): string {
  const zip = new ZipReader(bytes, limits);
  const xml = zip.text('word/document.xml');
  if (xml === null) throw new ExtractionError('damaged', 'a Word document without word/document.xml');
  const c = textCollector(DOCX_SKIP);
  let inText = 0;
  scan(
    xml,
    {
      open(name, _attrs, selfClosing) {
        if (c.enter(name, selfClosing)) return;
        if (name === 'w:t' && !selfClosing) inText++;
        else if (name === 'w:tab' || name === 'w:ptab') c.parts.push('\t');
        else if (name === 'w:br' || name === 'w:cr') c.parts.push('\n');
        else if (name === 'w:noBreakHyphen') c.parts.push('-');
      },
      close(name) {
        if (c.leave()) return;
        if (name === 'w:t') inText = Math.max(0, inText - 1);
        else if (name === 'w:p') c.parts.push('\n');
      },
      text(text) {
        if (inText > 0 && !c.skipping) c.parts.push(text);
      },
    },
    limits,
  );
  return c.parts.join('');
}

// ODT: notes and comments are not the running text; tracked changes hold deleted text.
const ODT_SKIP = new Set(['text:note', 'office:annotation', 'text:tracked-changes', 'text:sequence-decls', 'office:forms']);

/** The text of an OpenDocument text's content.xml. */
export function odtText(bytes: Uint8Array, limits: ExtractionLimits): string {
  const zip = new ZipReader(bytes, limits);
  const manifest = zip.text('META-INF/manifest.xml');
  if (manifest?.includes('encryption-data')) throw new ExtractionError('encrypted', 'the OpenDocument file is password-protected');
  const xml = zip.text('content.xml');
  if (xml === null) throw new ExtractionError('damaged', 'an OpenDocument file without content.xml');
  const c = textCollector(ODT_SKIP);
  let inParagraph = 0;
  scan(
    xml,
    {
      open(name, attrs, selfClosing) {
        if (c.enter(name, selfClosing)) return;
        if ((name === 'text:p' || name === 'text:h') && !selfClosing) inParagraph++;
        else if (name === 'text:line-break') c.parts.push('\n');
        else if (name === 'text:tab') c.parts.push('\t');
        else if (name === 'text:s') {
          // Spaces made from a few bytes are decoded bytes too: counted, so a file of such elements stops at the budget.
          const count = Math.min(1000, Math.max(1, Number(attribute(attrs, 'text:c') ?? 1) || 1));
          zip.budget.count(count);
          c.parts.push(' '.repeat(count));
        }
        if ((name === 'text:p' || name === 'text:h') && selfClosing) c.parts.push('\n');
      },
      close(name) {
        if (c.leave()) return;
        if (name === 'text:p' || name === 'text:h') {
          inParagraph = Math.max(0, inParagraph - 1);
          c.parts.push('\n');
        }
      },
      text(text) {
        if (inParagraph > 0 && !c.skipping) c.parts.push(text);
      },
    },
    limits,
  );
  return c.parts.join('');
}

// XHTML: elements whose end is a line break, and elements that are not running text.
const XHTML_BLOCKS = new Set(['p', 'div', 'br', 'li', 'tr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'dt', 'dd', 'section', 'article', 'header', 'footer', 'aside', 'figcaption', 'table', 'ul', 'ol', 'hr']);
const XHTML_SKIP = new Set(['head', 'script', 'style', 'template', 'svg:title']);

/** Local name of a possibly prefixed XML name, lowercased (`html:p` -> `p`). */
function localName(name: string): string {
  const colon = name.indexOf(':');
  return (colon < 0 ? name : name.slice(colon + 1)).toLowerCase();
}

/** The text of one XHTML content document: blocks end with a newline, head and scripts are skipped. */
function xhtmlText(xml: string, limits: ExtractionLimits): string {
  const c = textCollector(XHTML_SKIP);
  scan(
    xml,
    {
      open(name, _attrs, selfClosing) {
        if (c.enter(localName(name), selfClosing)) return;
        if (selfClosing && XHTML_BLOCKS.has(localName(name))) c.parts.push('\n');
      },
      close(name) {
        if (c.leave()) return;
        if (XHTML_BLOCKS.has(localName(name))) c.parts.push('\n');
      },
      text(text) {
        if (!c.skipping) c.parts.push(text);
      },
    },
    limits,
  );
  return c.parts.join('');
}

/** Resolves `href` (URL-encoded, relative to the folder of `base`) to a zip entry name. */
function resolveHref(base: string, href: string): string {
  const parts = base.split('/').slice(0, -1);
  let path = href.split('#')[0]!;
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape: use the name as written.
  }
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

/** What each item of an EPUB's spine costs of the inflation budget at least, however short its chapter. */
const SPINE_ITEM_BYTES = 1024;

/** The text of an EPUB: its package's spine (linear items) in order, each XHTML document's text. */
export function epubText(bytes: Uint8Array, limits: ExtractionLimits): string {
  const deadline = createDeadline(limits);
  const zip = new ZipReader(bytes, limits);
  if (zip.byName.has('META-INF/encryption.xml')) {
    const enc = zip.text('META-INF/encryption.xml') ?? '';
    // Font obfuscation (IDPF/Adobe) also lives here and hides no text; any other encrypted resource is DRM.
    const encrypted = [...enc.matchAll(/<(?:\w+:)?EncryptionMethod[^>]*Algorithm\s*=\s*"([^"]*)"/g)].some((m) => !/obfuscation|fontobfuscation|idpf\.org\/2008\/embedding/i.test(m[1]!));
    if (encrypted) throw new ExtractionError('encrypted', 'the EPUB is encrypted (DRM)');
  }
  const container = zip.text('META-INF/container.xml');
  if (container === null) throw new ExtractionError('damaged', 'an EPUB without META-INF/container.xml');
  const rootfile = /<(?:\w+:)?rootfile\b([^>]*)>/.exec(container);
  const opfPath = rootfile ? attribute(rootfile[1]!, 'full-path') : null;
  const opf = opfPath ? zip.text(opfPath) : null;
  if (!opfPath || opf === null) throw new ExtractionError('damaged', 'the EPUB names no package document');
  const manifest = new Map<string, { href: string; type: string; properties: string }>();
  const spine: string[] = [];
  scan(
    opf,
    {
      open(name, attrs) {
        const local = localName(name);
        if (local === 'item') {
          const id = attribute(attrs, 'id');
          const href = attribute(attrs, 'href');
          if (id && href) manifest.set(id, { href, type: attribute(attrs, 'media-type') ?? '', properties: attribute(attrs, 'properties') ?? '' });
        } else if (local === 'itemref' && attribute(attrs, 'linear') !== 'no') {
          const idref = attribute(attrs, 'idref');
          if (idref) spine.push(idref);
        }
      },
      close() {},
      text() {},
    },
    limits,
  );
  const texts: string[] = [];
  // A chapter the spine names again is read once, but counted against the budget each time (at least
  // SPINE_ITEM_BYTES): a spine that repeats one chapter two million times stops at the budget.
  const chapters = new Map<string, string | null>();
  for (const idref of spine) {
    deadline.check();
    zip.budget.count(SPINE_ITEM_BYTES);
    const item = manifest.get(idref);
    // The navigation document is a table of contents, not text of the book.
    if (!item || item.properties.split(/\s+/).includes('nav') || !/html|xml/i.test(item.type)) continue;
    const path = resolveHref(opfPath, item.href);
    let text = chapters.get(path);
    if (text === undefined) {
      const xml = zip.text(path);
      text = xml === null ? null : xhtmlText(xml, limits);
      chapters.set(path, text);
    } else if (text !== null) zip.budget.count(text.length);
    if (text !== null) texts.push(text);
  }
  return texts.join('\n');
}
