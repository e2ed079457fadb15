/** Loading the two documents of an opened pair: their texts (read again from the Files) and their exact Jaccard. */
import { useEffect, useState } from 'react';
import { loadDocumentText } from '../core/text/document-text.ts';
import { readableHtmlText } from '../core/text/html.ts';
import type { DocumentFormat } from '../core/text/document-format.ts';
import { createFingerprinter } from '../core/simhash/fingerprinter.ts';
import { containmentSorted, jaccardSorted } from '../core/groups/jaccard.ts';
import type { SimHashSettings } from '../core/simhash/settings.ts';

/** Texts above this many characters together get no main-thread Jaccard (it would hold the page too long). */
const JACCARD_CHAR_LIMIT = 400_000;

export type PairTexts =
  | { phase: 'loading' }
  | { phase: 'error'; message: string }
  | {
      phase: 'ready';
      textA: string;
      textB: string;
      /** What each file is (its text extracted from a PDF, DOCX, ...; or decoded). */
      formatA: DocumentFormat;
      formatB: DocumentFormat;
      jaccard: number | null;
      /** |A ∩ B| / min(|A|, |B|) of the feature sets; null when the texts are too long to measure here. */
      containment: number | null;
    };

/**
 * A document's text as the scan saw it: the file's bytes through the core's one rule
 * (`loadDocumentText`: a PDF, DOCX, ODT, EPUB or RTF file's extracted text; else decoded, with `path`
 * deciding HTML), never `File.text()` (always UTF-8, markup kept), so the pair view shows and measures
 * what was fingerprinted: windows-1252 as windows-1252, U+FFFD where invalid UTF-8 was replaced, pages
 * without their tags (and the blank lines their markup left), a PDF's text layer.
 */
export async function readDocumentText(file: Blob, path: string): Promise<{ text: string; format: DocumentFormat }> {
  const decoded = await loadDocumentText(new Uint8Array(await file.arrayBuffer()), path);
  if (!decoded.ok) throw new Error(`${path} does not look like text any more (${decoded.message})`);
  return { text: decoded.format === 'html' ? readableHtmlText(decoded.text) : decoded.text, format: decoded.format };
}

/**
 * Reads `fileA` and `fileB` (documents `pathA` and `pathB`; either may be a promise, for a document
 * opened again through a directory handle) with `readDocumentText` and computes the
 * containment and exact Jaccard of their feature sets under `settings` (the features the scan
 * fingerprinted; weights do not change the set): Jaccard unless `known` (a verified value) is given,
 * neither when the texts are too long for the main thread.
 */
export function usePairTexts(
  fileA: Blob | Promise<Blob> | null,
  fileB: Blob | Promise<Blob> | null,
  pathA: string,
  pathB: string,
  settings: SimHashSettings,
  known: number,
): PairTexts {
  const [state, setState] = useState<PairTexts>({ phase: 'loading' });
  useEffect(() => {
    if (!fileA || !fileB) return;
    let live = true;
    setState({ phase: 'loading' });
    Promise.all([Promise.resolve(fileA).then((a) => readDocumentText(a, pathA)), Promise.resolve(fileB).then((b) => readDocumentText(b, pathB))]).then(
      ([{ text: textA, format: formatA }, { text: textB, format: formatB }]) => {
        if (!live) return;
        let jaccard: number | null = Number.isNaN(known) ? null : known;
        let containment: number | null = null;
        if (textA.length + textB.length <= JACCARD_CHAR_LIMIT) {
          const fp = createFingerprinter({ ...settings, weights: 'binary' });
          const setA = fp.featureSet(textA);
          const setB = fp.featureSet(textB);
          jaccard ??= jaccardSorted(setA, setB);
          containment = containmentSorted(setA, setB);
        }
        setState({ phase: 'ready', textA, textB, formatA, formatB, jaccard, containment });
      },
      (error: unknown) => {
        if (live) setState({ phase: 'error', message: `Could not read the files again: ${error instanceof Error ? error.message : String(error)}` });
      },
    );
    return () => {
      live = false;
    };
  }, [fileA, fileB, pathA, pathB, settings, known]);
  return state;
}
