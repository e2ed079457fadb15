/**
 * The person's exclusions at a scan's listing (the keep panel's, as the CLI's --exclude, --min-size and
 * --max-size, with the same matcher): the files they match leave the listing before anything is read,
 * so they are never read and, for the saved corpus, are as files not in the folder.
 */
import { exclusionMatcher, type Exclusions } from '../core/documents/exclusions.ts';
import type { ScanWorkers } from '../workers/scan-workers.ts';
import type { CollectedFiles } from './collect-files.ts';
import { statFiles, statHandlePaths } from './quick-check.ts';

/** Whether `exclusions` can leave anything out. */
export function excludesAnything(exclusions: Exclusions): boolean {
  return exclusions.patterns.length > 0 || exclusions.extensions.length > 0 || exclusions.minSize !== null || exclusions.maxSize !== null;
}

/** What the exclusions left of a listing, and how many files they took out of it. */
export interface ExclusionSplit {
  listing: CollectedFiles;
  excluded: number;
}

/** `listing` at positions `keep` (each per-file column picked alike). */
function pickListing(listing: CollectedFiles, keep: readonly number[]): CollectedFiles {
  const out: CollectedFiles = { ...listing, files: keep.map((d) => listing.files[d]!), paths: keep.map((d) => listing.paths[d]!) };
  if (listing.modified) out.modified = Float64Array.from(keep, (d) => listing.modified![d]!);
  if (listing.ranges) {
    const ranges = new Float64Array(2 * keep.length);
    keep.forEach((d, i) => ranges.set(listing.ranges!.subarray(2 * d, 2 * d + 2), 2 * i));
    out.ranges = ranges;
  }
  return out;
}

/**
 * Leaves out of `listing` the files `exclusions` match. Path rules first (no file is asked anything);
 * only when a size rule is set are the remaining files asked their size (of the Files the page holds,
 * or through the handles the ingest workers hold for scan `handleToken`): that costs one metadata
 * fetch per file, so it is paid only when the person asked for it.
 */
export async function leaveOutExcluded(
  workers: ScanWorkers,
  listing: CollectedFiles,
  exclusions: Exclusions,
  handleToken: string | null,
  signal: AbortSignal,
): Promise<ExclusionSplit> {
  if (!excludesAnything(exclusions)) return { listing, excluded: 0 };
  const matches = exclusionMatcher(exclusions);
  let keep: number[] = [];
  for (let d = 0; d < listing.paths.length; d++) if (matches(listing.paths[d]!) === null) keep.push(d);
  if (exclusions.minSize !== null || exclusions.maxSize !== null) {
    const paths = keep.map((d) => listing.paths[d]!);
    const sizes =
      handleToken === null
        ? (await statFiles(listing.files, keep, signal)).sizes
        : await statHandlePaths(workers, handleToken, paths, signal).then((stats) => {
            // statHandlePaths answers by position in `paths`: put each size back at its listing position.
            const bySlot = new Float64Array(listing.paths.length).fill(-1);
            keep.forEach((d, i) => (bySlot[d] = stats.sizes[i]!));
            return bySlot;
          });
    // A file that could not be asked (-1) is kept: its read says what is wrong with it.
    keep = keep.filter((d) => sizes[d]! < 0 || matches(listing.paths[d]!, sizes[d]!) === null);
  }
  const excluded = listing.paths.length - keep.length;
  return excluded === 0 ? { listing, excluded: 0 } : { listing: pickListing(listing, keep), excluded };
}

/** The paths of a folder's whole listing (a resume's) the path rules of `exclusions` leave in. */
export function pathsNotExcluded(paths: readonly string[], exclusions: Exclusions): readonly string[] {
  if (!excludesAnything(exclusions)) return paths;
  const matches = exclusionMatcher(exclusions);
  return paths.filter((p) => matches(p) === null);
}
