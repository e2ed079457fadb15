/**
 * The straightforward reference SimHash, built from strings: normalizeText, tokenizeDetailed,
 * feature strings, xxhash-wasm's h64, simhashFromHashes. The fast fingerprinter must agree with it.
 */
import xxhash from 'xxhash-wasm';
import { normalizeText } from '../../../../src/core/text/normalize.ts';
import { charStream, removeStopWords, tokenizeDetailed } from '../../../../src/core/text/tokenize.ts';
import { simhashFromHashes } from '../../../../src/core/simhash/simhash.ts';
import { inverseDocumentFrequency } from '../../../../src/core/simhash/document-frequencies.ts';
import type { DocumentFrequencies } from '../../../../src/core/simhash/document-frequencies.ts';
import type { SimHashSettings } from '../../../../src/core/simhash/settings.ts';

export type ReferenceResult = { status: 'ok' | 'too-short'; hi: number; lo: number; features: string[] };

/** Feature strings of a text, in document order, with repeats. */
export function referenceFeatures(text: string, settings: SimHashSettings): string[] {
  let list = tokenizeDetailed(normalizeText(text));
  if (settings.stopWords) list = removeStopWords(list);
  const { kind, n } = settings.features;
  const out: string[] = [];
  if (kind === 'char-ngram') {
    const cps = [...charStream(list)];
    for (let i = 0; i + n <= cps.length; i++) out.push(cps.slice(i, i + n).join(''));
  } else {
    const size = kind === 'word' ? 1 : n;
    for (let i = 0; i + size <= list.tokens.length; i++) out.push(list.tokens.slice(i, i + size).join(' '));
  }
  return out;
}

const dfMaps = new WeakMap<DocumentFrequencies, Map<number, number>>();

/** Document frequencies by key, built once per table (rebuilt per text, it was half the parity test's time). */
function dfMapOf(df: DocumentFrequencies): Map<number, number> {
  let map = dfMaps.get(df);
  if (!map) {
    map = new Map();
    for (let i = 0; i < df.keys.length; i++) map.set(df.keys[i]!, df.counts[i]!);
    dfMaps.set(df, map);
  }
  return map;
}

/** Returns a reference fingerprint function once xxhash-wasm is loaded. */
export async function createReference(): Promise<
  (text: string, settings: SimHashSettings, df?: DocumentFrequencies) => ReferenceResult
> {
  const { h64 } = await xxhash();
  return (text, settings, df) => {
    const features = referenceFeatures(text, settings);
    if (features.length === 0) return { status: 'too-short', hi: 0, lo: 0, features };
    const counts = new Map<string, number>();
    for (const f of features) counts.set(f, (counts.get(f) ?? 0) + 1);
    const his: number[] = [];
    const los: number[] = [];
    const weights: number[] = [];
    const add = (f: string, w: number) => {
      const h = h64(f);
      his.push(Number(h >> 32n));
      los.push(Number(h & 0xffffffffn));
      weights.push(w);
    };
    if (settings.weights === 'binary') for (const f of counts.keys()) add(f, 1);
    else if (settings.weights === 'tf') for (const f of features) add(f, 1);
    else {
      const dfMap = dfMapOf(df!);
      for (const [f, tf] of counts) {
        const lo = Number(h64(f) & 0xffffffffn);
        const idf = inverseDocumentFrequency(df!.documents, dfMap.get(lo) ?? 0);
        add(f, Math.round(tf * idf * (1 << 20)));
      }
    }
    const { hi, lo } = simhashFromHashes(his, los, weights, 64);
    return { status: 'ok', hi, lo, features };
  };
}
