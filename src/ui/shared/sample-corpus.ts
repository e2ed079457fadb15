/** Loading the bundled sample corpus (public/sample) from the app's own origin as File objects. */

/** public/sample/manifest.json: the files of the sample corpus, relative to public/sample/. */
export interface SampleManifest {
  name: string;
  files: string[];
}

/** One sample file with the relative path a dropped folder would give it. */
export interface SampleFile {
  /** e.g. `simsift-sample/essays/tides.txt` */
  path: string;
  file: File;
}

/** Checks the manifest's shape and that every entry is a plain relative path inside the sample folder. */
export function parseSampleManifest(json: unknown): SampleManifest {
  const m = json as Partial<SampleManifest> | null;
  if (!m || typeof m.name !== 'string' || !Array.isArray(m.files)) throw new Error('The sample manifest is malformed.');
  for (const f of m.files) {
    if (typeof f !== 'string' || f === '' || f.startsWith('/') || f.split('/').some((p) => p === '..' || p === '')) {
      throw new Error(`The sample manifest lists an invalid path: ${String(f)}`);
    }
  }
  return { name: m.name, files: m.files };
}

/**
 * Fetches the sample corpus from `${baseUrl}sample/` (same origin, so the CSP allows it) and returns
 * it as File objects whose `webkitRelativePath` is set, so they take the same path as a chosen folder
 * (`{ kind: 'file-list', files }`). Pass `import.meta.env.BASE_URL` as `baseUrl`
 * (not read here, so the module also loads in Node); `fetchImpl` is injectable for Node tests.
 */
export async function loadSampleCorpus(
  baseUrl: string,
  fetchImpl: typeof fetch = fetch,
  signal?: AbortSignal,
): Promise<SampleFile[]> {
  const root = `${baseUrl.endsWith('/') ? baseUrl : baseUrl + '/'}sample/`;
  const response = await fetchImpl(`${root}manifest.json`, { signal });
  if (!response.ok) throw new Error(`Could not load the sample corpus (HTTP ${response.status}).`);
  const manifest = parseSampleManifest(await response.json());
  return Promise.all(
    manifest.files.map(async (rel) => {
      const r = await fetchImpl(root + rel.split('/').map(encodeURIComponent).join('/'), { signal });
      if (!r.ok) throw new Error(`Could not load sample file ${rel} (HTTP ${r.status}).`);
      const blob = await r.blob();
      const name = rel.slice(rel.lastIndexOf('/') + 1);
      const path = `simsift-sample/${rel}`;
      const file = new File([blob], name, { type: 'text/plain' });
      // Like a file from "Choose folder": the scan's file-list path reads webkitRelativePath.
      Object.defineProperty(file, 'webkitRelativePath', { value: path });
      return { path, file };
    }),
  );
}
