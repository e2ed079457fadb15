/**
 * The index worker's pairs CSV started as soon as grouping ends (`simsift scan --cache`): the worker
 * has the relation then, while its caller still has to take the result and write the cache, so the
 * CSV's bytes (core/export/pairs-csv-bytes.ts) are built meanwhile instead of after a second round trip.
 * The paths come first, while the worker waits for verification, and their cells are encoded then;
 * what is built is taken once.
 */
import { PathCells, pairsCsvBytes } from '../core/export/pairs-csv-bytes.ts';
import type { DuplicateRelation } from '../core/groups/duplicate-relation.ts';

let heldPaths: PathCells | null = null;
let pending: { relation: DuplicateRelation; paths: PathCells } | null = null;
let built: Uint8Array[] | null = null;

/** The names the next grouping's CSV is written with (names must be well-formed text); forgets any CSV not taken. */
export function holdCsvPaths(paths: readonly string[]): void {
  heldPaths = new PathCells(paths).encodeAll();
  pending = null;
  built = null;
}

/**
 * Builds the CSV of `relation` over the held paths once the grouping's result is on its way (the
 * relation must stay this worker's: not transferred). Nothing when no paths were held for it.
 */
export function buildCsvAfterGrouping(relation: DuplicateRelation): void {
  if (!heldPaths) return;
  pending = { relation, paths: heldPaths };
  heldPaths = null;
  built = null;
  // A task after this one: comlink posts the grouping result first (takeCsv builds it if asked before).
  setTimeout(buildPending, 0);
}

function buildPending(): void {
  if (!pending) return;
  built = pairsCsvBytes(pending.relation, pending.paths);
  pending = null;
}

/** The CSV built after the last grouping (built now if that has not happened yet), once; null when none was asked for. */
export function takeCsv(): Uint8Array[] | null {
  buildPending();
  const chunks = built;
  built = null;
  return chunks;
}
