/**
 * What a merge carries of both parts' per-document search state, at merged positions: small documents'
 * feature sets, sampled passages, the sets kept from fingerprinting, set sizes and MinHash sketches.
 */
import type { SimHashSettings } from '../core/simhash/settings.ts';
import { concatSets, type PackedSets } from '../core/groups/packed-sets.ts';
import { passagesWithCopies } from '../scan/contained-search.ts';
import { SKETCH_BINS, sketchKnown } from '../core/groups/minhash-sketch.ts';
import type { SearchCorpus } from '../scan/search-corpus.ts';

/** What a merge's part (the saved corpus, the scan) brings here: its search state and exact classes. */
export interface PartSearch {
  search: SearchCorpus | null;
  representative: Int32Array;
}

/** Small feature sets at merged positions, one part per document; sets of dropped documents are left out. */
function mapSets(sets: PackedSets, at: Int32Array, parts: PackedSets[]): void {
  for (let i = 0; i < sets.docs.length; i++) {
    const d = at[sets.docs[i]!]!;
    if (d < 0) continue;
    parts.push({ docs: Uint32Array.of(d), offsets: Uint32Array.of(0, sets.offsets[i + 1]! - sets.offsets[i]!), keys: sets.keys.subarray(sets.offsets[i]!, sets.offsets[i + 1]!) });
  }
}

/**
 * The feature sets both parts hold, at merged positions: small documents' sets (ascending doc ids, as a
 * scan's come) and the sets kept from fingerprinting (they depend on the features and stop words only).
 */
export function mergedSets(before: PartSearch, own: PartSearch, savedTo: Int32Array, ownTo: Int32Array, sameOwn: Int32Array, count: number, settings: SimHashSettings) {
  const parts: PackedSets[] = [];
  if (before.search) mapSets(before.search.smallSets, savedTo, parts);
  if (own.search) mapSets(own.search.smallSets, ownTo, parts);
  parts.sort((x, y) => x.docs[0]! - y.docs[0]!);
  // Sampled passages (containment), the same way: both parts' at merged positions, ascending. A saved
  // document the scan read again unchanged takes the scan's passages (a saved corpus made without
  // containment has none), and then not its own as well.
  const passages: PackedSets[] = [];
  const ownPassagesTo = ownTo.slice();
  const savedPassagesTo = savedTo.slice();
  if (own.search?.passages) {
    sameOwn.forEach((d, q) => {
      if (d < 0 || savedTo[q]! < 0) return;
      ownPassagesTo[d] = savedTo[q]!;
      savedPassagesTo[q] = -1;
    });
  }
  if (before.search?.passages) mapSets(passagesWithCopies(before.search.passages, before.representative), savedPassagesTo, passages);
  if (own.search?.passages) mapSets(passagesWithCopies(own.search.passages, own.representative), ownPassagesTo, passages);
  passages.sort((x, y) => x.docs[0]! - y.docs[0]!);
  const keptSets: Array<Uint32Array | undefined> = new Array(count);
  // Feature-set sizes saved without the sets (the CLI's cache): verification's size bound reads them.
  let setSizes: Uint32Array | undefined;
  // MinHash sketches (a scan's, the CLI cache's): verification's sketch filter reads them.
  let sketches: Uint16Array | undefined;
  const setKey = (s: SimHashSettings) => JSON.stringify([s.features, s.stopWords]);
  for (const [search, to] of [[before.search, savedTo], [own.search, ownTo]] as const) {
    const sets = search?.keptSets;
    const sizes = search?.setSizes;
    const sketched = search?.sketches;
    if (!search || setKey(search.settings) !== setKey(settings)) continue;
    if (sizes) setSizes ??= new Uint32Array(count);
    if (sketched) sketches ??= new Uint16Array(count * SKETCH_BINS);
    for (let d = 0; d < to.length; d++) {
      if (to[d]! < 0) continue;
      if (sets?.[d]) keptSets[to[d]!] = sets[d];
      if (sizes) setSizes![to[d]!] = sizes[d]!;
      if (sketched) sketches!.set(sketched.subarray(d * SKETCH_BINS, (d + 1) * SKETCH_BINS), to[d]! * SKETCH_BINS);
    }
  }
  // A saved document read again unchanged takes the set the scan kept (else containment reads it again).
  const ownSets = own.search && setKey(own.search.settings) === setKey(settings) ? own.search.keptSets : undefined;
  if (ownSets) sameOwn.forEach((d, q) => void (d >= 0 && savedTo[q]! >= 0 && ownSets[d] && (keptSets[savedTo[q]!] ??= ownSets[d])));
  // And the scan's sketch, where the saved one is not known (same text, same sketch).
  const ownSketches = own.search && setKey(own.search.settings) === setKey(settings) ? own.search.sketches : undefined;
  if (ownSketches && sketches) {
    sameOwn.forEach((d, q) => {
      const to = savedTo[q]!;
      if (d >= 0 && to >= 0 && !sketchKnown(sketches!, to)) sketches!.set(ownSketches.subarray(d * SKETCH_BINS, (d + 1) * SKETCH_BINS), to * SKETCH_BINS);
    });
  }
  return { parts, keptSets, passages: concatSets(passages), ...(setSizes ? { setSizes } : {}), ...(sketches ? { sketches } : {}) };
}
