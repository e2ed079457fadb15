// Issue #35: document shapes that stopped a scan. Each test failed on the code before its fix. The
// work runs in a child process, killed by a generous hang detector (a synchronous regular expression
// cannot be stopped from inside): the old code took minutes, or hit the 60 s extraction limit.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runNode } from '../../../run-node.ts';

const SRC = resolve('src/core/text');

/**
 * Runs `body` (an ES module's statements, with `extraction` and `documentText` imported and fflate's
 * `zipSync`/`strToU8` at hand) in a child and returns what it prints as JSON; rejects when it hangs.
 */
async function inChild(body: string): Promise<unknown> {
  const script = `
    import { zipSync, strToU8 } from 'fflate';
    const extraction = await import(${JSON.stringify(`${SRC}/documents/extraction.ts`)});
    const { loadDocumentText } = await import(${JSON.stringify(`${SRC}/document-text.ts`)});
    const odt = (body) => zipSync({
      mimetype: [strToU8('application/vnd.oasis.opendocument.text'), { level: 0 }],
      'content.xml': strToU8('<office:document-content><office:body><office:text><text:p>' + body + '</text:p></office:text></office:body></office:document-content>'),
    });
    const docx = (text) => zipSync({ '[Content_Types].xml': strToU8('<Types/>'), 'word/document.xml': strToU8('<w:document><w:body><w:p><w:r><w:t xml:space="preserve">' + text + '</w:t></w:r></w:p></w:body></w:document>') });
    const brief = (doc) => doc.ok ? { ok: true, start: doc.text.slice(0, 7), end: doc.text.slice(-6), length: doc.text.length } : { ok: false, reason: doc.reason, message: doc.message };
    ${body}
  `;
  const r = await runNode(['--import', 'tsx', '--input-type=module', '-e', script], { hangMs: 90_000 });
  if (r.code !== 0) throw new Error(`child failed (${r.code}): ${r.err}`);
  return JSON.parse(r.out);
}

describe('document text cleaning is linear in its input (#35)', { timeout: 120_000 }, () => {
  it('a million spaces not followed by a line end are cleaned at once', async () => {
    const r = await inChild(`
      const text = 'start' + ' '.repeat(1_000_000) + 'end\\n' + '\\t '.repeat(500_000) + 'x  \\n\\n\\n\\ny';
      const want = 'start' + ' '.repeat(1_000_000) + 'end\\n' + '\\t '.repeat(500_000) + 'x\\n\\ny';
      console.log(JSON.stringify(extraction.cleanExtractedText(text) === want));
    `);
    expect(r).toBe(true);
  });

  it('an ODT of 1,000 <text:s text:c="1000"/> is read', async () => {
    const r = await inChild(`console.log(JSON.stringify(brief(await loadDocumentText(odt('before ' + '<text:s text:c="1000"/>'.repeat(1000) + ' after'), 'spaces.odt'))));`);
    expect(r).toMatchObject({ ok: true, start: 'before ', end: ' after' });
  });

  it('DOCX and RTF with long runs of spaces are read', async () => {
    const r = await inChild(`
      const spaces = ' '.repeat(1_000_000);
      const a = brief(await loadDocumentText(docx('before' + spaces + 'after'), 'spaces.docx'));
      const b = brief(await loadDocumentText(strToU8('{\\\\rtf1 before' + spaces + 'after\\\\par}'), 'spaces.rtf'));
      console.log(JSON.stringify([a, b]));
    `);
    expect(r).toMatchObject([{ ok: true, start: 'before ', end: ' after' }, { ok: true, start: 'before ', end: ' after' }]);
  });

  it('an ODT whose <text:s/> expand past the inflation budget stops there', async () => {
    // 200,000 elements of 1,000 spaces: 200 MB of spaces from a file of a few hundred KB.
    const r = await inChild(`console.log(JSON.stringify(brief(await loadDocumentText(odt('x' + '<text:s text:c="1000"/>'.repeat(200_000) + 'y'), 'bomb.odt'))));`);
    expect(r).toMatchObject({ ok: false, reason: 'over-limit' });
  });
});

describe('the inflation budget counts every decoded byte, shared streams included (#35)', { timeout: 120_000 }, () => {
  it('three pages sharing one content stream of 1 MB stop at a 2 MB budget; one page of it does not', async () => {
    const r = await inChild(`
      const { deflateSync } = await import('node:zlib');
      const limits = { ...extraction.DEFAULT_EXTRACTION_LIMITS, maxInflatedBytes: 2 * 1024 * 1024 };
      const line = 'BT /F1 12 Tf 72 712 Td (shared words on every page) Tj ET\\n';
      const stream = deflateSync(Buffer.from(line.repeat(Math.ceil(1048576 / line.length)).slice(0, 1048576)));
      const out = [];
      for (const pages of [1, 3]) {
        const kids = Array.from({ length: pages }, (_, i) => (10 + i) + ' 0 R').join(' ');
        const objects = ['1 0 obj <</Type/Catalog/Pages 2 0 R>> endobj\\n', '2 0 obj <</Type/Pages/Kids[' + kids + ']/Count ' + pages + '>> endobj\\n',
          '3 0 obj <</Type/Font/Subtype/Type1/BaseFont/Helvetica>> endobj\\n'];
        for (let i = 0; i < pages; i++) objects.push((10 + i) + ' 0 obj <</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]/Contents 4 0 R/Resources<</Font<</F1 3 0 R>>>>>> endobj\\n');
        const pdf = Buffer.concat([Buffer.from('%PDF-1.4\\n' + objects.join('') + '4 0 obj <</Length ' + stream.length + '/Filter/FlateDecode>> stream\\n'), stream, Buffer.from('\\nendstream endobj\\ntrailer <</Root 1 0 R>>\\n%%EOF\\n')]);
        const doc = await loadDocumentText(new Uint8Array(pdf), 'shared.pdf', limits);
        out.push(doc.ok ? { ok: true } : { ok: false, reason: doc.reason, message: doc.message });
      }
      console.log(JSON.stringify(out));
    `);
    expect(r).toMatchObject([{ ok: true }, { ok: false, reason: 'over-limit', message: expect.stringMatching(/inflates to more than 2 MB/) }]);
  });
});
