/** Loading the bundled sample corpus for the empty state's "Try a sample corpus" button. */
import { useCallback, useState } from 'react';
import { loadSampleCorpus } from './sample-corpus.ts';

export interface SampleCorpusLoader {
  /** Fetches the sample (same origin) and hands its files to `onFiles`. */
  load: () => void;
  loading: boolean;
  /** A message for people when loading failed, else null. */
  error: string | null;
}

/**
 * `onFiles` receives File objects with `webkitRelativePath` set, ready for the chosen-folder scan
 * path: `scanSession.start({ kind: 'file-list', files })`.
 */
export function useSampleCorpus(onFiles: (files: File[]) => void): SampleCorpusLoader {
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    setLoading(true);
    setError(null);
    loadSampleCorpus(import.meta.env.BASE_URL).then(
      (sample) => {
        setLoading(false);
        onFiles(sample.map((s) => s.file));
      },
      (e: unknown) => {
        setLoading(false);
        setError(e instanceof Error ? e.message : String(e));
      },
    );
  }, [onFiles]);
  return { load, loading, error };
}
