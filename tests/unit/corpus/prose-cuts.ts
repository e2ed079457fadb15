/** A folder for the reload tests: real prose, each document whole and cut to 60% and 75% of its lines. */
import { realTextSources } from '../../../bench/real-corpus.ts';
import { fileOf } from './corpus-model.ts';

/**
 * Twelve real documents, each whole and cut to 60% and 75% of its lines: the cuts are near the whole
 * only below the 0.8 threshold, and the feature-set sizes say so without measuring.
 */
export function proseWithCuts(): File[] {
  const decoder = new TextDecoder();
  return realTextSources({ kernel: 'if-installed' })
    .filter((s) => !s.path.startsWith('kernel/'))
    .slice(0, 12)
    .flatMap((s, i) => {
      const lines = decoder.decode(s.bytes).split('\n');
      const t = 1_700_000_000_000 + i * 1000;
      return [
        fileOf(`f/whole/${s.path}`, lines.join('\n'), t),
        fileOf(`f/cut60/${s.path}`, lines.slice(0, Math.ceil(lines.length * 0.6)).join('\n'), t),
        fileOf(`f/cut75/${s.path}`, lines.slice(0, Math.ceil(lines.length * 0.75)).join('\n'), t),
      ];
    });
}
