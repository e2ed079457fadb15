/**
 * Grouping only the touched components (relation-splice.ts) held to a full regroup: seeded random
 * sequences of changes to a corpus (documents removed, added, edited as a removal and an addition at
 * the same path), each step's relation built once from the last step's groups and once from nothing,
 * must be the same in every array (groups, their order, primary groups, identical flags, counts). A
 * failure prints the seed and the shortest failing sequence. `SIMSIFT_SPLICE_SEQUENCES` runs more.
 */
import { describe, expect, it } from 'vitest';
import { buildDuplicateRelation, type DuplicateRelation, type RelationInput } from '../../../../src/core/groups/duplicate-relation.ts';
import { previousGroupsAt } from '../../../../src/core/groups/relation-splice.ts';
import { mulberry32Unit } from '../../../fixtures/mulberry32.ts';
import type { DocId } from '../../../../src/core/ids.ts';

const SEQUENCES = Number(process.env.SIMSIFT_SPLICE_SEQUENCES ?? 400);

/** The texts documents can hold: near-duplicate edges between them, and each text's length (few lengths, so ties happen). */
interface World {
  texts: number;
  near: Map<number, { jaccard: number; distance: number }>;
  words: number[];
}

interface Doc {
  path: number;
  text: number;
  fingerprinted: boolean;
}

interface Step {
  remove: number[];
  add: Doc[];
}

function world(rand: () => number): World {
  const texts = 4 + Math.floor(rand() * 30);
  const density = rand() * 0.3;
  const near = new Map<number, { jaccard: number; distance: number }>();
  for (let x = 0; x < texts; x++) {
    for (let y = x + 1; y < texts; y++) {
      // Few distinct Jaccards, so members tie on them too.
      if (rand() < density) near.set(x * texts + y, { jaccard: 0.8 + Math.floor(rand() * 3) / 10, distance: Math.floor(rand() * 4) });
    }
  }
  return { texts, near, words: Array.from({ length: texts }, () => 5 + Math.floor(rand() * 3)) };
}

const randomDoc = (rand: () => number, w: World): Doc => ({ path: rand(), text: Math.floor(rand() * w.texts), fingerprinted: rand() > 0.1 });

function randomSteps(rand: () => number, w: World, length: number): Step[] {
  return Array.from({ length }, () => {
    const remove = Array.from({ length: Math.floor(rand() * 4) }, () => Math.floor(rand() * 1000));
    const add = Array.from({ length: Math.floor(rand() * 4) }, () => randomDoc(rand, w));
    // An edit: a document at the path of one removed, with another text.
    if (remove.length > 0 && rand() < 0.5) add.push({ path: -1 - remove[0]!, text: Math.floor(rand() * w.texts), fingerprinted: true });
    return { remove, add };
  });
}

/** The relation's input for documents in path order, as a scan's merge gives it: the lowest fingerprinted copy stands for a text. */
function relationInput(w: World, docs: readonly Doc[], pinnedPaths: readonly number[], grouping: 'reference' | 'components'): RelationInput {
  const n = docs.length;
  const representative = new Int32Array(n).fill(-1);
  const repOf = new Map<number, number>();
  docs.forEach((d, i) => {
    if (!d.fingerprinted) return;
    if (!repOf.has(d.text)) repOf.set(d.text, i);
    representative[i] = repOf.get(d.text)!;
  });
  const pairs: [number, number, number, number][] = [];
  for (const [key, edge] of w.near) {
    const a = repOf.get(Math.floor(key / w.texts));
    const b = repOf.get(key % w.texts);
    if (a !== undefined && b !== undefined) pairs.push([Math.min(a, b), Math.max(a, b), edge.distance, edge.jaccard]);
  }
  pairs.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const verified = {
    a: Uint32Array.from(pairs, (p) => p[0]),
    b: Uint32Array.from(pairs, (p) => p[1]),
    distance: Uint8Array.from(pairs, (p) => p[2]),
    jaccard: Float32Array.from(pairs, (p) => p[3]),
    count: pairs.length,
  };
  const pinned = pinnedPaths.flatMap((path) => {
    const i = docs.findIndex((d) => d.path === path);
    return i >= 0 ? [i as DocId] : [];
  });
  return { count: n, representative, verified, lengths: Uint32Array.from(docs, (d) => w.words[d.text]!), grouping, pinned };
}

/** Every array of the relation, as plain lists (NaN compares equal to NaN). */
const plain = (r: DuplicateRelation) => JSON.stringify(r, (_, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as unknown as ArrayLike<number>, (x) => (Number.isNaN(x) ? 'NaN' : x)) : v));

/** Runs `steps` from the seed's starting corpus; the first step whose spliced relation differs from a full one, or null. */
function runSequence(seed: number, steps: readonly Step[]): string | null {
  const rand = mulberry32Unit(seed);
  const w = world(rand);
  const grouping = seed % 3 === 0 ? 'components' : 'reference';
  let docs = Array.from({ length: 1 + Math.floor(rand() * 40) }, () => randomDoc(rand, w)).sort((x, y) => x.path - y.path);
  const pinnedPaths = seed % 4 === 1 ? docs.filter(() => rand() < 0.15).map((d) => d.path) : [];
  let input = relationInput(w, docs, pinnedPaths, grouping);
  let relation = buildDuplicateRelation(input);
  for (const [s, step] of steps.entries()) {
    const removed = new Set(step.remove.map((i) => (docs.length === 0 ? -1 : i % docs.length)));
    const kept = docs.filter((_, i) => !removed.has(i));
    const added = step.add.map((d) => (d.path < 0 ? { ...d, path: docs[(-1 - d.path) % Math.max(1, docs.length)]?.path ?? rand() } : d));
    const next = [...kept, ...added].sort((x, y) => x.path - y.path);
    const savedTo = Int32Array.from(docs, (d) => next.indexOf(d));
    const touched = Uint8Array.from(next, (d) => (added.includes(d) ? 1 : 0));
    const previous = previousGroupsAt({ representative: input.representative, verified: input.verified, groups: relation.groups, identical: relation.identical }, savedTo, touched);
    input = relationInput(w, next, pinnedPaths, grouping);
    const full = buildDuplicateRelation(input);
    const spliced = buildDuplicateRelation({ ...input, previous });
    if (plain(spliced) !== plain(full)) return `after step ${s + 1}: the spliced groups differ from a full regroup (${grouping}, ${next.length} documents)`;
    docs = next;
    relation = spliced;
  }
  return null;
}

/** The shortest failing sequence found by dropping one step at a time while it still fails. */
function shrink(seed: number, steps: Step[]): Step[] {
  let current = steps;
  for (let changed = true; changed; ) {
    changed = false;
    for (let i = 0; i < current.length && !changed; i++) {
      const shorter = current.filter((_, j) => j !== i);
      if (runSequence(seed, shorter) !== null) {
        current = shorter;
        changed = true;
      }
    }
  }
  return current;
}

describe('spliceGroups', () => {
  it(`groups like a full regroup after ${SEQUENCES} random sequences of changes`, () => {
    for (let seed = 1; seed <= SEQUENCES; seed++) {
      const steps = randomSteps(mulberry32Unit(seed * 7919), world(mulberry32Unit(seed)), 6);
      const failure = runSequence(seed, steps);
      if (failure !== null) expect.fail(`seed ${seed}: ${failure}\nshortest failing sequence: ${JSON.stringify(shrink(seed, steps))}`);
    }
  });

  it('keeps the saved groups of untouched components (the splice is not a regroup in disguise)', () => {
    const w: World = { texts: 4, near: new Map([[0 * 4 + 1, { jaccard: 0.9, distance: 1 }], [2 * 4 + 3, { jaccard: 0.9, distance: 1 }]]), words: [5, 5, 5, 5] };
    const docs: Doc[] = [0, 1, 2, 3].map((t) => ({ path: t, text: t, fingerprinted: true }));
    const input = relationInput(w, docs, [], 'reference');
    const relation = buildDuplicateRelation(input);
    // A stale saved group for the untouched component {2, 3}: kept as it is, which a regroup would not do.
    const stale = { ...relation.groups, jaccardToReference: relation.groups.jaccardToReference.map(() => 0.5) };
    const touched = Uint8Array.of(1, 0, 0, 0);
    const previous = previousGroupsAt({ representative: input.representative, verified: input.verified, groups: stale, identical: relation.identical }, Int32Array.of(0, 1, 2, 3), touched);
    const spliced = buildDuplicateRelation({ ...input, previous });
    const slotsOf = (doc: number) => spliced.groups.offsets[spliced.groups.groupOf[doc]!]!;
    expect(spliced.groups.jaccardToReference[slotsOf(2)]).toBe(0.5);
    expect(spliced.groups.jaccardToReference[slotsOf(0)]).toBe(1);
  });
});
