import { describe, expect, it } from 'vitest';
import { HUB_CONTAINERS, knownCounts, measuringOrder, NEAR_DUPLICATE, noKnownContainment, remember } from '../../../src/scan/containment-counts.ts';
import { ContainedBuffer, type ContainmentCandidates } from '../../../src/core/groups/contained-pairs.ts';
import { COUNT_BELOW } from '../../../src/core/simhash/simhash.ts';
import { mulberry32 } from '../../fixtures/mulberry32.ts';

/** Candidates from (inner, outer) pairs, sorted as the candidate stage gives them. */
function candidatesOf(pairs: [number, number][]): ContainmentCandidates {
  const sorted = pairs.slice().sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return { inner: Uint32Array.from(sorted, (p) => p[0]), outer: Uint32Array.from(sorted, (p) => p[1]), count: sorted.length };
}

/** Feature-set decodes of measuring `order` in chunks of at most `docs` documents (each chunk decodes the sets it names once). */
function decodes(candidates: ContainmentCandidates, order: ArrayLike<number>, docs: number): number {
  let total = 0;
  let chunk = new Set<number>();
  for (const p of Array.from(order)) {
    if (chunk.size >= docs) {
      total += chunk.size;
      chunk = new Set();
    }
    chunk.add(candidates.inner[p]).add(candidates.outer[p]);
  }
  return total + chunk.size;
}

describe('measuringOrder', () => {
  it('orders the pairs to measure breadth-first over the graph of the pairs, a hub’s pairs at their container, then in candidate order (seeded)', () => {
    const random = mulberry32(3903);
    for (let t = 0; t < 50; t++) {
      const n = 20 + (random() % 200);
      // Some documents lie in many others: hubs (more than HUB_CONTAINERS containers) in some cases.
      const pairs: [number, number][] = Array.from({ length: random() % 300 }, () => [random() % n, random() % n]);
      for (let h = random() % 3; h > 0; h--) for (let k = 0, a = random() % n; k < HUB_CONTAINERS + (random() % 4); k++) pairs.push([a, random() % n]);
      const candidates = candidatesOf(pairs.filter(([a, b]) => a !== b));
      const todo = Array.from({ length: candidates.count }, (_, p) => p).filter(() => random() % 4 > 0);
      const order = measuringOrder(candidates, todo, n);
      // The model: containers counted, ranks by a plain breadth-first search over the pairs of non-hubs
      // (each component from its lowest document, neighbours in the order the pairs come), then the
      // containers met only through hubs in the order the pairs name them.
      const containers = new Array(n).fill(0);
      for (const p of todo) containers[candidates.inner[p]]++;
      const hub = (p: number) => containers[candidates.inner[p]] > HUB_CONTAINERS;
      const neighbours = Array.from({ length: n }, () => [] as number[]);
      for (const p of todo.filter((p) => !hub(p))) {
        neighbours[candidates.inner[p]].push(candidates.outer[p]);
        neighbours[candidates.outer[p]].push(candidates.inner[p]);
      }
      const rank = new Array(n).fill(-1);
      let ranked = 0;
      for (let d = 0; d < n; d++) {
        if (rank[d] >= 0 || neighbours[d].length === 0) continue;
        const queue = [d];
        rank[d] = ranked++;
        for (let i = 0; i < queue.length; i++) for (const e of neighbours[queue[i]]) if (rank[e] < 0) queue.push(e), (rank[e] = ranked++);
      }
      for (const p of todo) if (rank[candidates.outer[p]] < 0) rank[candidates.outer[p]] = ranked++;
      const key = (p: number) => (hub(p) ? rank[candidates.outer[p]] : Math.min(rank[candidates.inner[p]], rank[candidates.outer[p]]));
      expect(Array.from(order), `case ${t}`).toEqual(todo.slice().sort((x, y) => key(x) - key(y) || x - y));
    }
  });

  it('measures a hub (a navigation page in every page) with each of its containers, not all its containers together', () => {
    // 20 navigation pages (ids 0-19) each in every one of 400 pages (20-419), each page also inside the
    // next one: breadth-first through the navigation pages, a chunk of 64 documents takes pages from all
    // over the component, and each page comes back in many chunks.
    const pairs: [number, number][] = [];
    for (let a = 0; a < 20; a++) for (let b = 20; b < 420; b++) pairs.push([a, b]);
    for (let b = 20; b < 419; b++) pairs.push([b, b + 1]);
    const candidates = candidatesOf(pairs);
    const todo = Array.from({ length: candidates.count }, (_, p) => p);
    const byContainer = decodes(candidates, measuringOrder(candidates, todo, 420), 64);
    // Each page once, but where a chunk ends inside a pair of neighbours, and the navigation pages in every chunk.
    expect(byContainer).toBeLessThan(420 + 20 * Math.ceil(420 / 44) + 20);
    expect(decodes(candidates, todo, 64)).toBeGreaterThan(5 * byContainer);
  });

  it('decodes each family of excerpts and wholes in few chunks, where candidate order mixes them', () => {
    // 100 families of 10 documents whose ids interleave (family f holds f, f + 100, ...): in (inner, outer)
    // order a chunk of 64 documents holds pieces of many families, and every set comes back in many chunks.
    const pairs: [number, number][] = [];
    for (let f = 0; f < 100; f++) for (let i = 0; i < 10; i++) for (let j = i + 1; j < 10; j++) pairs.push([f + 100 * i, f + 100 * j]);
    const candidates = candidatesOf(pairs);
    const todo = Array.from({ length: candidates.count }, (_, p) => p);
    const inOrder = decodes(candidates, todo, 64);
    const byComponent = decodes(candidates, measuringOrder(candidates, todo, 1000), 64);
    expect(byComponent).toBeLessThan(1100); // each set once, but where a chunk ends inside a family
    expect(inOrder).toBeGreaterThan(3 * byComponent);
  });

  it('inside one component, keeps each whole with its excerpts, where candidate order brings back a set for about every pair', () => {
    // 100 wholes (f) of 9 excerpts each (f + 100 i), the ids interleaved; each family's
    // first excerpt also lies in the next family's whole, so all of it is one component.
    const pairs: [number, number][] = [];
    for (let f = 0; f < 100; f++) for (let i = 1; i < 10; i++) pairs.push([f + 100 * i, f]);
    for (let f = 0; f < 99; f++) pairs.push([f + 100, f + 1]);
    const candidates = candidatesOf(pairs);
    const todo = Array.from({ length: candidates.count }, (_, p) => p);
    const byFamily = decodes(candidates, measuringOrder(candidates, todo, 1000), 64);
    expect(byFamily).toBeLessThan(1150);
    expect(decodes(candidates, todo, 64)).toBeGreaterThan(1.5 * byFamily);
  });
});

describe('knownCounts', () => {
  it('takes counts measured before, then counts from the near-duplicate stage’s Jaccards where both sizes are known, and leaves the rest', () => {
    // Pairs (inner, outer): (0, 1) measured before; (2, 3) and (3, 4) had their Jaccard measured (a < b);
    // (5, 6) nothing known; (4, 7) a Jaccard but an unknown size.
    const candidates = candidatesOf([[0, 1], [2, 3], [4, 3], [5, 6], [4, 7]]);
    const known = remember(noKnownContainment(), candidatesOf([[0, 1]]), Int32Array.of(-1), Float64Array.of(9, 10, 30));
    const sizes = Uint32Array.of(10, 30, 40, 50, 45, 5, 6, 0);
    const jaccards = { a: Uint32Array.of(2, 3, 4), b: Uint32Array.of(3, 4, 7), jaccard: Float64Array.of(36 / 54, 44 / 51, 0.5), count: 3 };
    const counts = new Float64Array(3 * candidates.count);
    const at = knownCounts(candidates, known, jaccards, sizes, counts, 0.9);
    expect(Array.from(at)).toEqual([0, -1, -1, -1, -1]);
    expect(Array.from(counts)).toEqual([9, 10, 30, 36, 40, 50, 44, 45, 50, 0, 0, 0, 0, 0, 0]);
    // Remembered: the counts known now, each pair once.
    const after = remember(known, candidates, at, counts);
    expect([Array.from(after.a), Array.from(after.b), Array.from(after.common)]).toEqual([[0, 2, 4], [1, 3, 3], [9, 36, 44]]);
  });

  it('marks a pair whose Jaccard reaches the near-duplicate threshold with a size unknown: never contained, so never measured', () => {
    // (0, 1) Jaccard 0.85 and (2, 3) 0.8 exactly: near-duplicates at 0.8; (4, 5) 0.5 could be contained. No sizes (a reload).
    const candidates = candidatesOf([[0, 1], [2, 3], [4, 5]]);
    const jaccards = { a: Uint32Array.of(0, 2, 4), b: Uint32Array.of(1, 3, 5), jaccard: Float64Array.of(0.85, Math.fround(0.8), 0.5), count: 3 };
    const counts = new Float64Array(9);
    const at = knownCounts(candidates, noKnownContainment(), jaccards, new Uint32Array(6), counts, 0.9, 0.8);
    expect(Array.from(at)).toEqual([NEAR_DUPLICATE, NEAR_DUPLICATE, -1]);
    expect(Array.from(counts)).toEqual(new Array(9).fill(0));
    expect(remember(noKnownContainment(), candidates, at, counts).count).toBe(0);
    // At a higher near-duplicate threshold (a regroup) they could be contained: left to measure.
    expect(Array.from(knownCounts(candidates, noKnownContainment(), jaccards, new Uint32Array(6), counts, 0.9, 0.9))).toEqual([-1, -1, -1]);
  });

  it('keeps a count that stopped early below a higher threshold, and measures it again at a threshold its bound could reach', () => {
    // (0, 1) measured at T = 0.9 (9 of 10 needed): it stopped at a bound of 7.
    const candidates = candidatesOf([[0, 1]]);
    const known = remember(noKnownContainment(), candidates, Int32Array.of(-1), Float64Array.of((COUNT_BELOW | 7) >>> 0, 10, 30));
    const none = { a: new Uint32Array(0), b: new Uint32Array(0), jaccard: new Float64Array(0), count: 0 };
    const sizes = Uint32Array.of(10, 30);
    for (const threshold of [0.9, 0.95, 0.75]) {
      const counts = new Float64Array(3);
      expect(Array.from(knownCounts(candidates, known, none, sizes, counts, threshold))).toEqual([0]);
      // Still below (7 < 8 needed at 0.75): nothing to measure, and the exact check refuses it.
      expect(Array.from(counts)).toEqual([(COUNT_BELOW | 7) >>> 0, 10, 30]);
      expect(new ContainedBuffer().judge(0, 1, counts[0], 10, 30, { threshold, jaccardThreshold: 0.8 })).toBe(false);
    }
    // At 0.7 (7 needed) the bound could be reached: measured again, and the new count replaces it.
    const counts = new Float64Array(3);
    const at = knownCounts(candidates, known, none, sizes, counts, 0.7);
    expect(Array.from(at)).toEqual([0]);
    expect(Array.from(counts)).toEqual([0, 0, 0]);
    counts.set([7, 10, 30]);
    const after = remember(known, candidates, at, counts);
    expect([after.count, Array.from(after.common)]).toEqual([1, [7]]);
    const again = new Float64Array(3);
    knownCounts(candidates, after, none, sizes, again, 0.7);
    expect(Array.from(again)).toEqual([7, 10, 30]);
  });

  it('remembers counts merged with those known before, sorted by pair, whatever order the candidates come in (seeded)', () => {
    const random = mulberry32(3941);
    for (let t = 0; t < 40; t++) {
      const n = 2 + (random() % 30);
      const pairs = (count: number) => Array.from({ length: count }, () => [random() % n, random() % n] as [number, number]).filter(([a, b]) => a !== b);
      const first = candidatesOf(pairs(random() % 40));
      const distinct = (c: ContainmentCandidates) => new Set(Array.from({ length: c.count }, (_, p) => `${c.inner[p]} ${c.outer[p]}`));
      const once = [...distinct(first)].map((k) => k.split(' ').map(Number) as [number, number]);
      const old = candidatesOf(once);
      const count = (p: number) => [1 + p, 100 + p, 200 + p];
      const known = remember(noKnownContainment(), old, new Int32Array(old.count).fill(-1), Float64Array.from(Array.from({ length: old.count }, (_, p) => count(p)).flat()));
      // New candidates: some known before (at: their entry), some not; sorted as the stage gives them, or not.
      const fresh = [...distinct(candidatesOf(pairs(random() % 40)))].filter((k) => !distinct(old).has(k)).map((k) => k.split(' ').map(Number) as [number, number]);
      const mixed = [...once.filter(() => random() % 2), ...fresh];
      const sorted = random() % 3 > 0;
      const candidates = sorted ? candidatesOf(mixed) : { inner: Uint32Array.from(mixed, (p) => p[0]), outer: Uint32Array.from(mixed, (p) => p[1]), count: mixed.length };
      const at = Int32Array.from({ length: candidates.count }, (_, p) => once.findIndex(([a, b]) => a === candidates.inner[p] && b === candidates.outer[p]));
      const known0 = old.count;
      const counts = Float64Array.from(Array.from({ length: candidates.count }, (_, p) => [1000 + p, 2000 + p, 3000 + p]).flat());
      const model = new Map<string, number[]>();
      for (let k = 0; k < known0; k++) model.set(`${known.a[k]} ${known.b[k]}`, [known.common[k], known.sizeA[k], known.sizeB[k]]);
      for (let p = 0; p < candidates.count; p++) {
        const key = `${candidates.inner[p]} ${candidates.outer[p]}`;
        model.set(key, at[p] >= 0 ? [counts[3 * p], ...model.get(key)!.slice(1)] : [counts[3 * p], counts[3 * p + 1], counts[3 * p + 2]]);
      }
      const want = [...model].map(([k, v]) => [...k.split(' ').map(Number), ...v]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
      const after = remember(known, candidates, at, counts);
      const got = Array.from({ length: after.count }, (_, r) => [after.a[r], after.b[r], after.common[r], after.sizeA[r], after.sizeB[r]]);
      expect(got, `case ${t}, sorted ${sorted}`).toEqual(want);
    }
  });
});
