import { describe, expect, it } from 'vitest';
import { createFingerprinter } from '../../../../src/core/simhash/fingerprinter.ts';
import { DEFAULT_SETTINGS } from '../../../../src/core/simhash/settings.ts';

describe('a fingerprinter reused across documents', () => {
  it('gives a text ending in a long token the fingerprint a fresh one gives, after a longer non-ASCII document', () => {
    // The kernel reads 8 bytes at a time: a token at the end of a text once ran on into the bytes an
    // earlier, longer document left in the buffer.
    const prose =
      'The quick brown fox jumps over the lazy dog while the farmer watches from the old wooden fence, ' +
      'thinking about the harvest that will come when the autumn rains finally arrive in the valley.';
    const earlier = `${prose} Grüße aus Köln, café, naïve, déjà vu. `.repeat(5);
    const texts = Array.from({ length: 40 }, (_, i) => `${prose} number ${i} ${'x'.repeat(i * 97)}`);
    const reused = createFingerprinter(DEFAULT_SETTINGS);
    reused.fingerprint(earlier);
    for (const text of texts) {
      const fresh = createFingerprinter(DEFAULT_SETTINGS).fingerprint(text);
      const again = reused.fingerprint(text);
      expect([again.hi, again.lo], `${text.length}`).toEqual([fresh.hi, fresh.lo]);
    }
  });
});
