import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFingerprinter } from '../../../../src/core/simhash/fingerprinter.ts';
import { DEFAULT_SETTINGS } from '../../../../src/core/simhash/settings.ts';
import {
  byteDigest,
  featureSetDigest,
  goldenSources,
  parseGoldenSettings,
  printOf,
  type GoldenFile,
} from '../../../fixtures/real-text/golden-files.ts';
import { createReference } from './reference-fingerprint.ts';

// Real text (kernel Documentation, npm package docs) fingerprinted by the kernel before the speed
// work: the fingerprinter must still give exactly these.
const golden = JSON.parse(readFileSync(new URL('../../../fixtures/real-text/golden.json', import.meta.url), 'utf8')) as GoldenFile;

let sources: ReturnType<typeof goldenSources>;
let matched: { entry: GoldenFile['entries'][number]; text: string }[];
beforeAll(() => {
  sources = goldenSources();
  const byPath = new Map(sources.map((s) => [s.path, s]));
  matched = [];
  for (const entry of golden.entries) {
    const s = byPath.get(entry.path);
    if (s && byteDigest(s.bytes) === entry.digest) matched.push({ entry, text: s.text });
  }
}, 60_000);

describe('fingerprints of real text equal the recorded ones', () => {
  it('finds the recorded files (npm docs always; kernel docs when linux-doc is installed)', () => {
    expect(matched.length).toBeGreaterThan(50);
  });

  it('every setting, every matched file', () => {
    const fps = golden.settings.map((label) => createFingerprinter(parseGoldenSettings(label)));
    const word3 = createFingerprinter(DEFAULT_SETTINGS);
    for (const { entry, text } of matched) {
      expect(fps.map((fp) => printOf(fp, text)), entry.path).toEqual(entry.prints);
      expect(featureSetDigest(word3.featureSet(text)), entry.path).toBe(entry.featureSet);
    }
  }, 60_000);

  it('agrees with the string-level reference on the real files that are not pure ASCII', async () => {
    const reference = await createReference();
    const nonAscii = sources.filter((s) => /[^\x00-\x7f]/.test(s.text)).slice(0, 120);
    expect(nonAscii.length).toBeGreaterThan(10);
    for (const label of ['word3:binary', 'char5:binary']) {
      const settings = parseGoldenSettings(label);
      const fp = createFingerprinter(settings);
      for (const s of nonAscii) {
        const want = reference(s.text, settings);
        const got = fp.fingerprint(s.text);
        expect(got.features, s.path).toBe(want.features.length);
        expect([got.hi, got.lo], s.path).toEqual([want.hi, want.lo]);
      }
    }
  }, 60_000);
});
