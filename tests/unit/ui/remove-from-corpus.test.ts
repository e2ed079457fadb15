import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ON_DISK_NOTE, RemoveFromCorpus } from '../../../src/ui/corpus/RemoveFromCorpus.tsx';

describe('Remove from corpus', () => {
  it('says beside the button, before any click, that the file on disk is untouched', () => {
    const html = renderToStaticMarkup(createElement(RemoveFromCorpus, { path: 'notes/a.txt', onRemove: () => undefined }));
    expect(ON_DISK_NOTE).toMatch(/file on disk is untouched/);
    const describedBy = /aria-describedby="([^"]+)"/.exec(html)?.[1];
    expect(describedBy).toBeDefined();
    expect(html).toContain(`id="${describedBy}" class="corpus-remove__note">${ON_DISK_NOTE}</small>`);
    expect(html).toContain('aria-label="Remove notes/a.txt from corpus"');
  });
  it('points at a shared note instead of repeating it when given one', () => {
    const html = renderToStaticMarkup(createElement(RemoveFromCorpus, { path: 'a.txt', onRemove: () => undefined, noteId: 'shared' }));
    expect(html).toContain('aria-describedby="shared"');
    expect(html).not.toContain(ON_DISK_NOTE);
  });
});
