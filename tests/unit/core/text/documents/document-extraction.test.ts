import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { loadDocumentText } from '../../../../../src/core/text/document-text.ts';
import { sniffFormat } from '../../../../../src/core/text/document-format.ts';
import { DEFAULT_EXTRACTION_LIMITS } from '../../../../../src/core/text/documents/extraction.ts';
import { createFingerprinter } from '../../../../../src/core/simhash/fingerprinter.ts';
import { DEFAULT_SETTINGS } from '../../../../../src/core/simhash/settings.ts';
import { jaccardSorted } from '../../../../../src/core/groups/jaccard.ts';

const DIR = join(import.meta.dirname, '../../../../fixtures/documents');
const read = (name: string) => new Uint8Array(readFileSync(join(DIR, name)));
const sets = createFingerprinter({ ...DEFAULT_SETTINGS, weights: 'binary' });

async function featureSetOf(name: string): Promise<Uint32Array> {
  const doc = await loadDocumentText(read(name), name);
  if (!doc.ok) throw new Error(`${name}: ${doc.reason} ${doc.message}`);
  return sets.featureSet(doc.text);
}

describe('documents made by real tools (pandoc, groff + Ghostscript) read as their plain text', () => {
  const renderings = readdirSync(DIR).filter((f) => /^(cc0|apache)\.(docx|odt|epub|rtf|pdf)$/.test(f));

  it('has every format of both texts', () => {
    expect(renderings.sort()).toEqual(['docx', 'epub', 'odt', 'pdf', 'rtf'].flatMap((f) => [`apache.${f}`, `cc0.${f}`]).sort());
  });

  for (const file of renderings) {
    it(`${file} is a near-duplicate of its plain text, and not of the other text`, async () => {
      const base = file.split('.')[0]!;
      const other = base === 'cc0' ? 'apache' : 'cc0';
      expect(sniffFormat(read(file), 'renamed.bin').format).toBe(file.split('.')[1]);
      const mine = await featureSetOf(file);
      const same = jaccardSorted(mine, await featureSetOf(`${base}.txt`));
      const different = jaccardSorted(mine, await featureSetOf(`${other}.txt`));
      const spec = jaccardSorted(mine, await featureSetOf('shared-mime-info-spec.pdf'));
      console.log(`Jaccard ${file} ~ ${base}.txt ${same.toFixed(3)}; ~ ${other}.txt ${different.toFixed(3)}; ~ shared-mime-info-spec.pdf ${spec.toFixed(3)}`);
      expect(same).toBeGreaterThanOrEqual(0.8);
      expect(different).toBeLessThan(0.2);
      expect(spec).toBeLessThan(0.2);
    });
  }

  it('keeps paragraphs and line breaks as newlines, and a PDF page header once', async () => {
    for (const file of ['cc0.docx', 'cc0.odt', 'cc0.epub', 'cc0.rtf', 'cc0.pdf']) {
      const doc = await loadDocumentText(read(file), file);
      expect(doc.ok && doc.text.split('\n').length).toBeGreaterThan(20);
      expect(doc.ok && doc.text).toContain('Statement of Purpose\n');
    }
    // groff prints "-2-", "-3-" atop pages 2 and 3: page numbers, dropped.
    const pdf = await loadDocumentText(read('cc0.pdf'), 'cc0.pdf');
    expect(pdf.ok && pdf.text).not.toMatch(/^-\s*\d+\s*-$/m);
  });

  it('reads the PDF Debian ships with shared-mime-info', async () => {
    const doc = await loadDocumentText(read('shared-mime-info-spec.pdf'), 'spec.pdf');
    expect(doc.ok && doc.format).toBe('pdf');
    expect(doc.ok && doc.text).toContain('Shared MIME-info Database');
  });
});

describe('documents that cannot be read are skipped with a reason', () => {
  const cases: Array<[string, string]> = [
    ['broken/cc0-scanned.pdf', 'no-text'],
    ['broken/cc0-encrypted.pdf', 'encrypted'],
    ['broken/cc0-truncated.docx', 'damaged'],
  ];
  for (const [file, reason] of cases) {
    it(`${file}: ${reason}`, async () => {
      const doc = await loadDocumentText(read(file), file);
      expect(doc.ok ? 'ok' : doc.reason).toBe(reason);
      console.log(`${file}: ${doc.ok ? 'ok' : `${doc.reason} (${doc.message})`}`);
    });
  }

  it('a PDF cut in half is damaged, or read up to the cut (pdf.js rebuilds what it can)', async () => {
    const doc = await loadDocumentText(read('broken/cc0-truncated.pdf'), 'cc0-truncated.pdf');
    console.log(`broken/cc0-truncated.pdf: ${doc.ok ? `ok, ${doc.text.length} characters` : `${doc.reason} (${doc.message})`}`);
    if (doc.ok) expect(doc.text.length).toBeLessThan(7048);
    else expect(doc.reason).toBe('damaged');
  });

  it('a file named .docx that is not one is damaged, a text file named .pdf is text', async () => {
    const zip = zipSync({ 'a.txt': strToU8('hello') });
    expect(await loadDocumentText(zip, 'report.docx')).toMatchObject({ ok: false, reason: 'damaged' });
    expect(await loadDocumentText(strToU8('just words, not a PDF'), 'report.pdf')).toMatchObject({ ok: true, format: 'text' });
    // A text quoting a PDF header is not a PDF.
    expect(sniffFormat(strToU8('The header is %PDF-1.4 then objects.'), 'notes.txt').format).toBe('text');
  });

  it('a zip bomb stops at the inflated-bytes limit', async () => {
    const xml = `<w:document><w:body><w:p><w:r><w:t>${' '.repeat(8 * 1024 * 1024)}</w:t></w:r></w:p></w:body></w:document>`;
    const bomb = zipSync({ '[Content_Types].xml': strToU8('<Types/>'), 'word/document.xml': strToU8(xml) }, { level: 9 });
    expect(bomb.length).toBeLessThan(xml.length / 500);
    const limits = { ...DEFAULT_EXTRACTION_LIMITS, maxInflatedBytes: 1024 * 1024 };
    const doc = await loadDocumentText(bomb, 'bomb.docx', limits);
    expect(doc).toMatchObject({ ok: false, reason: 'over-limit' });
    console.log(`zip bomb (${bomb.length} bytes, inflates to ${xml.length}): ${doc.ok ? 'ok' : doc.message}`);
  });

  it('deeply nested XML and RTF stop at the depth limit, without overflowing the stack', async () => {
    const depth = 200_000;
    const xml = `<w:document><w:body>${'<w:p>'.repeat(depth)}<w:r><w:t>x</w:t></w:r>${'</w:p>'.repeat(depth)}</w:body></w:document>`;
    const docx = zipSync({ '[Content_Types].xml': strToU8('<Types/>'), 'word/document.xml': strToU8(xml) });
    expect(await loadDocumentText(docx, 'deep.docx')).toMatchObject({ ok: false, reason: 'over-limit' });
    const rtf = strToU8(`{\\rtf1 ${'{'.repeat(depth)}x${'}'.repeat(depth)}}`);
    expect(await loadDocumentText(rtf, 'deep.rtf')).toMatchObject({ ok: false, reason: 'over-limit' });
  });

  it('a PDF over the page limit or the time limit is stopped', async () => {
    const pages = await loadDocumentText(read('cc0.pdf'), 'cc0.pdf', { ...DEFAULT_EXTRACTION_LIMITS, maxPages: 2 });
    expect(pages).toMatchObject({ ok: false, reason: 'over-limit' });
    const time = await loadDocumentText(read('shared-mime-info-spec.pdf'), 'spec.pdf', { ...DEFAULT_EXTRACTION_LIMITS, maxMillis: 0 });
    expect(time).toMatchObject({ ok: false, reason: 'over-limit' });
  });
});

describe('RTF', () => {
  it('reads code-page bytes, \\u escapes with their fallback, and skips destinations', async () => {
    const rtf = strToU8("{\\rtf1\\ansi\\ansicpg1252{\\fonttbl{\\f0 Times;}}{\\*\\generator x;}{\\header Running head\\par}caf\\'e9 \\u8364?5\\par second\\line line}");
    expect(await loadDocumentText(rtf, 'a.rtf')).toMatchObject({ ok: true, format: 'rtf', text: 'café €5\nsecond\nline' });
  });
});
