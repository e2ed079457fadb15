/** The skipped list's box (src/ui/skipped/SkippedPanel.tsx): as tall as its rows, up to a screenful. */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SkippedFile } from '../../../src/scan/scan-result.ts';
import { SkippedPanel } from '../../../src/ui/skipped/SkippedPanel.tsx';

const skippedFiles = (count: number): SkippedFile[] =>
  Array.from({ length: count }, (_, d) => ({ docId: d, path: `docs/${d}.txt`, size: 3, reason: 'too-short', message: 'Too short: 2 words is too few for a meaningful fingerprint.' }));

const boxHeight = (count: number) => {
  const html = renderToStaticMarkup(createElement(SkippedPanel, { skipped: skippedFiles(count) }));
  return Number(/aria-label="Skipped files" style="height:(\d+)px"/.exec(html)?.[1]);
};

describe('SkippedPanel', () => {
  it('fits one skipped file (linux-doc showed it in a 320 px empty box) and scrolls many in a screenful', () => {
    expect(boxHeight(1)).toBeLessThan(60);
    expect(boxHeight(3)).toBeGreaterThan(boxHeight(1));
    expect(boxHeight(5000)).toBe(320);
  });
});
