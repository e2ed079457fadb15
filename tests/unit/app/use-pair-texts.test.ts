import { describe, expect, it } from 'vitest';
import { readDocumentText } from '../../../src/app/use-pair-texts.ts';

describe('readDocumentText (the pair view reads documents as the scan did)', () => {
  it('decodes invalid UTF-8 with U+FFFD, as the ingest worker does, not as File.text() would differ', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode('café naïve '), 0xff, ...new TextEncoder().encode(' déjà vu')]);
    expect((await readDocumentText(new Blob([bytes]), 'notes/a.txt')).text).toBe('café naïve \uFFFD déjà vu');
  });
  it('reads windows-1252 files as windows-1252 (File.text() turned them into U+FFFD)', async () => {
    const latin1 = Uint8Array.from('café au lait, 5 €', (c) => (c === '€' ? 0x80 : c.charCodeAt(0)));
    const blob = new Blob([latin1]);
    expect((await readDocumentText(blob, 'a.txt')).text).toBe('café au lait, 5 €');
    expect(await blob.text()).not.toBe('café au lait, 5 €');
  });
  it('strips HTML by the document path, as the scan does', async () => {
    const page = new Blob(['<html><body><p>Hello</p><script>evil()</script><p>world</p></body></html>']);
    expect((await readDocumentText(page, 'site/index.html')).text.replace(/\s+/g, ' ').trim()).toBe('Hello world');
    expect((await readDocumentText(page, 'site/index.txt')).text).toContain('<script>');
  });
  it('refuses bytes that are not text any more', async () => {
    await expect(readDocumentText(new Blob([new Uint8Array([0x50, 0x4b, 0, 0])]), 'a.txt')).rejects.toThrow(/does not look like text/);
  });
});
