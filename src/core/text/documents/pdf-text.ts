/**
 * The text layer of a PDF, read with pdf.js (pdfjs-dist's legacy build, which runs in browsers,
 * workers and Node). pdf.js runs in the calling thread (its "fake worker"), so the app's ingest
 * workers need no further worker and no worker script URL; the library is bundled and loaded from
 * the app's own origin only when the first PDF appears. Lines become lines; a running header or
 * footer (the same line, digits aside, at the top or bottom of most pages) is kept once and page
 * numbers are dropped, so nothing repeats per page. A PDF whose pages hold no text (scanned
 * images) is skipped as 'no-text'; encrypted and damaged ones are skipped with their reason.
 */
/// <reference path="./pdfjs-worker.d.ts" />
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import * as pdfWorker from 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import { createDeadline, ExtractionError, type ExtractionLimits } from './extraction.ts';
import { checkPdfInflation } from './pdf-streams.ts';

// pdf.js looks for its worker code here before trying to start a Worker from a URL.
(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = pdfWorker;
pdfjs.GlobalWorkerOptions.workerSrc = '';

/** A line at a page's top or bottom, its digits masked: how running headers and footers are recognised. */
function runningKey(line: string): string {
  return line.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();
}

/** A line that is only a page number ("12", "- 12 -", "Page 3 of 40", "iv"). */
function isPageNumber(line: string): boolean {
  return /^[\s\-–—|.]*((page|p\.|seite|pagina)\s*)?(\d{1,5}|[ivxlcdm]{1,7})(\s*(of|\/|de|von)\s*\d{1,5})?[\s\-–—|.]*$/i.test(line);
}

/** Rejoins pages of lines, keeping a running header or footer once and dropping page numbers at a page's edges. */
export function joinPages(pages: string[][]): string {
  const EDGE = 2;
  const counts = new Map<string, number>();
  for (const lines of pages) {
    const seen = new Set<string>();
    const edges = lines.length <= 2 * EDGE ? lines : [...lines.slice(0, EDGE), ...lines.slice(-EDGE)];
    for (const line of edges) seen.add(runningKey(line));
    for (const key of seen) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const running = new Set<string>();
  if (pages.length >= 3) for (const [key, count] of counts) if (key !== '' && count >= Math.max(3, pages.length / 2)) running.add(key);
  const kept = new Set<string>();
  return pages
    .map((lines) =>
      lines
        .filter((line, i) => {
          const edge = i < EDGE || i >= lines.length - EDGE;
          if (!edge) return true;
          if (isPageNumber(line)) return false;
          const key = runningKey(line);
          if (!running.has(key)) return true;
          if (kept.has(key)) return false;
          kept.add(key);
          return true;
        })
        .join('\n'),
    )
    .join('\n');
}

/** The text of a PDF's pages (at most `limits.maxPages`, within `limits.maxMillis`). */
export async function pdfText(bytes: Uint8Array, limits: ExtractionLimits): Promise<{ text: string; pages: number }> {
  const deadline = createDeadline(limits);
  checkPdfInflation(bytes, limits);
  // pdf.js takes (detaches) the buffer it is given: hand it a copy, the caller keeps the file's bytes.
  const task = pdfjs.getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    isOffscreenCanvasSupported: false,
    stopAtErrors: false,
    enableXfa: false,
    verbosity: 0,
  });
  /** Rejects when the deadline passes, so a PDF that keeps pdf.js busy is given up (and destroyed). */
  const race = <T>(promise: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ExtractionError('over-limit', `reading the PDF took longer than ${limits.maxMillis / 1000} s`)), Math.max(0, deadline.remaining()));
      promise.then(
        (value) => (clearTimeout(timer), resolve(value)),
        (error: unknown) => (clearTimeout(timer), reject(error)),
      );
    });
  try {
    const doc = await race(task.promise);
    if (doc.numPages > limits.maxPages) throw new ExtractionError('over-limit', `${doc.numPages.toLocaleString('en')} pages, more than ${limits.maxPages.toLocaleString('en')}`);
    const pages: string[][] = [];
    let characters = 0;
    for (let p = 1; p <= doc.numPages; p++) {
      deadline.check();
      const page = await race(doc.getPage(p));
      const content = await race(page.getTextContent());
      const parts: string[] = [];
      for (const item of content.items) {
        if (!('str' in item)) continue;
        parts.push(item.str);
        characters += item.str.trim().length;
        if (item.hasEOL) parts.push('\n');
      }
      pages.push(
        parts
          .join('')
          .split('\n')
          .map((line) => line.trim())
          .filter((line) => line !== ''),
      );
      page.cleanup();
    }
    if (characters === 0) throw new ExtractionError('no-text', `no text layer on ${doc.numPages === 1 ? 'its page' : `any of its ${doc.numPages} pages`} (a scan? SimSift does not read text from images)`);
    // A word the typesetter hyphenated at a line's end is one word again ("mod-\nify" -> "modify").
    return { text: joinPages(pages).replace(/(\p{Ll})-\n(\p{Ll})/gu, '$1$2'), pages: doc.numPages };
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    const name = (error as { name?: string })?.name;
    const message = error instanceof Error ? error.message : String(error);
    if (name === 'PasswordException') throw new ExtractionError('encrypted', 'the PDF needs a password');
    throw new ExtractionError('damaged', `pdf.js could not read it (${message})`);
  } finally {
    void task.destroy();
  }
}
