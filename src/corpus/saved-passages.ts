/**
 * The sampled passages of a corpus (the containment search's input) by stored document id, as the saved
 * corpus and the CLI's cache keep them, and back at the positions of a restored corpus: so a reload, or
 * a cached scan, searches contained documents without reading any file.
 */
import { passagesWithCopies } from '../scan/contained-search.ts';
import type { PackedSets } from '../core/groups/packed-sets.ts';
import type { StorageId, StorageIds } from '../core/ids.ts';

/**
 * `passages` (by position) by stored id, every exact copy given its text's passages (whichever copy a
 * restore makes the representative has them); positions without an id (`missing`) are left out.
 */
export function passagesByStorageId(passages: PackedSets, representative: Int32Array, storageIds: StorageIds, missing: StorageId): PackedSets {
  const all = passagesWithCopies(passages, representative);
  const keep: number[] = [];
  for (let i = 0; i < all.docs.length; i++) if (storageIds[all.docs[i]!] !== undefined && storageIds[all.docs[i]!] !== missing) keep.push(i);
  return packed(all, keep, (d) => storageIds[d]!);
}

/** Passages kept by stored id, at the positions `storageIds` gives those ids (ascending positions; ids not there left out). */
export function passagesAtPositions(passages: PackedSets, storageIds: StorageIds): PackedSets {
  const positionOf = new Map<number, number>();
  storageIds.forEach((id, p) => positionOf.set(id, p));
  const keep: number[] = [];
  for (let i = 0; i < passages.docs.length; i++) if (positionOf.has(passages.docs[i]!)) keep.push(i);
  return packed(passages, keep, (d) => positionOf.get(d)!);
}

/** The documents `keep` (indexes into `from`) renamed by `name`, sorted by their new ids. */
function packed(from: PackedSets, keep: number[], name: (d: number) => number): PackedSets {
  keep.sort((x, y) => name(from.docs[x]!) - name(from.docs[y]!));
  const size = (i: number) => from.offsets[i + 1]! - from.offsets[i]!;
  const out: PackedSets = { docs: new Uint32Array(keep.length), offsets: new Uint32Array(keep.length + 1), keys: new Uint32Array(keep.reduce((n, i) => n + size(i), 0)) };
  keep.forEach((i, j) => {
    out.docs[j] = name(from.docs[i]!);
    out.keys.set(from.keys.subarray(from.offsets[i]!, from.offsets[i + 1]!), out.offsets[j]!);
    out.offsets[j + 1] = out.offsets[j]! + size(i);
  });
  return out;
}
