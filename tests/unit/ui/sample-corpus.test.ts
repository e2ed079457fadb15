import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadSampleCorpus, parseSampleManifest } from '../../../src/ui/shared/sample-corpus.ts';

/** A fetch that serves the repository's public/ folder, as the app's origin does. */
const servePublic: typeof fetch = async (input) => {
  const url = String(input);
  const rel = decodeURIComponent(url.replace(/^\/+/, ''));
  try {
    return new Response(readFileSync(new URL(`../../../public/${rel}`, import.meta.url)));
  } catch {
    return new Response('not found', { status: 404 });
  }
};

describe('sample corpus', () => {
  it('rejects manifests with paths that leave the sample folder', () => {
    expect(() => parseSampleManifest({ name: 'x', files: ['../secret.txt'] })).toThrow(/invalid path/);
    expect(() => parseSampleManifest({ name: 'x', files: ['/abs.txt'] })).toThrow(/invalid path/);
    expect(() => parseSampleManifest({ files: [] })).toThrow(/malformed/);
  });
  it('loads every file listed in public/sample/manifest.json as a non-empty File', async () => {
    const files = await loadSampleCorpus('/', servePublic);
    const manifest = JSON.parse(readFileSync(new URL('../../../public/sample/manifest.json', import.meta.url), 'utf8'));
    expect(files.length).toBe(manifest.files.length);
    expect(files.length).toBeGreaterThanOrEqual(24);
    for (const { path, file } of files) {
      expect(path.startsWith('simsift-sample/')).toBe(true);
      expect(path.endsWith(file.name)).toBe(true);
      expect(file.webkitRelativePath).toBe(path);
      expect(file.size).toBeGreaterThan(200);
    }
  });
  it('reports a missing file', async () => {
    const broken: typeof fetch = async (input) =>
      String(input).endsWith('manifest.json')
        ? new Response(JSON.stringify({ name: 'x', files: ['missing.txt'] }))
        : new Response('', { status: 404 });
    await expect(loadSampleCorpus('/', broken)).rejects.toThrow(/missing\.txt.*404/);
  });
});
