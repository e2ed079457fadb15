/**
 * `npm run bench -- documents [--runs N]`: extraction speed per format on the real documents of
 * tests/fixtures/documents (core loadDocumentText, one thread): MB of file and, for PDF, pages per
 * second, after a first call that loads the format's library (its time is printed apart).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadDocumentText } from '../src/core/text/document-text.ts';
import { benchOptions, JSON_OPTION, loadAverage, numberOption, report } from './harness.ts';

const DIR = join(import.meta.dirname, '../tests/fixtures/documents');
const FILES: Array<[string, string[]]> = [
  ['pdf', ['cc0.pdf', 'apache.pdf', 'shared-mime-info-spec.pdf']],
  ['docx', ['cc0.docx', 'apache.docx']],
  ['odt', ['cc0.odt', 'apache.odt']],
  ['epub', ['cc0.epub', 'apache.epub']],
  ['rtf', ['cc0.rtf', 'apache.rtf']],
  ['text', ['cc0.txt', 'apache.txt']],
];

export async function main(args: string[]): Promise<void> {
  const o = benchOptions(args, { runs: { type: 'string' }, ...JSON_OPTION }, 'usage: npm run bench -- documents [--runs 20] [--json]');
  if (!o) return;
  const runs = numberOption(o.runs, 20, 'runs');
  console.log(`load average before: ${loadAverage().join(' ')}; ${runs} runs per file`);
  const figures: Record<string, unknown> = {};
  for (const [format, names] of FILES) {
    const files = names.map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(DIR, name))) }));
    let t0 = performance.now();
    await loadDocumentText(files[0]!.bytes, files[0]!.name);
    const first = performance.now() - t0;
    let bytes = 0;
    let chars = 0;
    t0 = performance.now();
    for (let r = 0; r < runs; r++) {
      for (const f of files) {
        const doc = await loadDocumentText(f.bytes, f.name);
        if (!doc.ok) throw new Error(`${f.name}: ${doc.message}`);
        bytes += f.bytes.length;
        chars += doc.text.length;
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    const pageCount = format === 'pdf' ? await pdfPages(files) : 0;
    const pagesPerSecond = format === 'pdf' ? ` ${((pageCount * runs) / seconds).toFixed(1)} pages/s (${pageCount} pages a round),` : '';
    figures[format] = { firstCallMs: Math.round(first), mbPerSecond: bytes / 1e6 / seconds, charsPerSecond: chars / seconds, runs };
    console.log(
      `${format.padEnd(5)} first call ${first.toFixed(0)} ms (loads the library); then ${(bytes / 1e6 / seconds).toFixed(2)} MB/s of file,${pagesPerSecond} ` +
        `${(chars / 1e6 / seconds).toFixed(2)} M chars/s of text (${files.length} files, ${(bytes / runs / 1024).toFixed(0)} KB a round)`,
    );
  }
  report('documents', figures, o);
}

/** Pages in the PDFs (pdf.js's count). */
async function pdfPages(files: Array<{ bytes: Uint8Array }>): Promise<number> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let total = 0;
  for (const f of files) {
    const doc = await pdfjs.getDocument({ data: f.bytes.slice(), isEvalSupported: false, verbosity: 0 }).promise;
    total += doc.numPages;
    await doc.destroy();
  }
  return total;
}
