/**
 * The caller's side of the index worker's pairs CSV built right after grouping (workers/pairs-csv-ahead.ts):
 * which relation it was built for and over which paths, so it stands for that relation's CSV only.
 */
import type { DuplicateRelation } from '../core/groups/duplicate-relation.ts';

const ahead = new WeakMap<DuplicateRelation, { paths: readonly string[]; chunks: Promise<Uint8Array[] | null> }>();

/** Records the CSV the index worker is building for `relation` over `paths` (null: it built none). */
export function rememberCsvAhead(relation: DuplicateRelation, paths: readonly string[], chunks: Promise<Uint8Array[] | null>): void {
  chunks.catch(() => {});
  ahead.set(relation, { paths, chunks });
}

/**
 * The pairs CSV (pairs-csv-bytes.ts, no rows left out, no contained rows) of this very `relation`
 * over this very `paths` array, built after its grouping; null when none was (then build it). Taken once.
 */
export function takeCsvAhead(relation: DuplicateRelation, paths: readonly string[]): Promise<Uint8Array[] | null> | null {
  const entry = ahead.get(relation);
  ahead.delete(relation);
  return entry && entry.paths === paths ? entry.chunks : null;
}
