import { describe, expect, it } from 'vitest';
import { buildDuplicateRelation, neighboursOf, type RelationInput } from '../../../../src/core/groups/duplicate-relation.ts';
import { forEachRelationPair } from '../../../../src/core/groups/relation-pairs.ts';
import { pairsCsvBytes } from '../../../../src/core/export/pairs-csv-bytes.ts';
import { pairsCsvText } from '../../../fixtures/pairs-csv.ts';
import type { ScoredPairs } from '../../../../src/core/groups/group-table.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';
import type { DocId } from '../../../../src/core/ids.ts';

function pairs(list: [number, number, number, number][]): ScoredPairs {
  return {
    a: Uint32Array.from(list.map((p) => p[0])),
    b: Uint32Array.from(list.map((p) => p[1])),
    distance: Uint8Array.from(list.map((p) => p[2])),
    jaccard: Float32Array.from(list.map((p) => p[3])),
    count: list.length,
  };
}

/** The relation by definition: identical texts, or representatives that are a verified pair. */
function bruteForce(input: RelationInput): Map<string, { distance: number; jaccard: number }> {
  const out = new Map<string, { distance: number; jaccard: number }>();
  const verified = new Map<string, number>();
  for (let p = 0; p < input.verified.count; p++) verified.set(`${input.verified.a[p]},${input.verified.b[p]}`, p);
  const rep = input.representative;
  for (let x = 0; x < input.count; x++) {
    for (let y = x + 1; y < input.count; y++) {
      if (rep[x] < 0 || rep[y] < 0) continue;
      if (rep[x] === rep[y]) {
        out.set(`${x},${y}`, { distance: 0, jaccard: 1 });
        continue;
      }
      const key = rep[x] < rep[y] ? `${rep[x]},${rep[y]}` : `${rep[y]},${rep[x]}`;
      const p = verified.get(key);
      if (p !== undefined) out.set(`${x},${y}`, { distance: input.verified.distance[p], jaccard: input.verified.jaccard[p] });
    }
  }
  return out;
}

/** A random corpus: exact classes of random sizes, random verified pairs between representatives. */
function randomInput(seed: number, n: number, grouping: 'reference' | 'components'): RelationInput {
  const next = mulberry32(seed);
  const representative = new Int32Array(n).fill(-1);
  const reps: number[] = [];
  for (let d = 0; d < n; d++) {
    const roll = next() % 10;
    if (roll === 0) continue; // not fingerprinted
    if (roll < 4 && reps.length > 0) representative[d] = reps[next() % reps.length];
    else {
      representative[d] = d;
      reps.push(d);
    }
  }
  const seen = new Set<string>();
  const list: [number, number, number, number][] = [];
  for (let i = 0; i < reps.length; i++) {
    const a = reps[next() % reps.length];
    const b = reps[next() % reps.length];
    if (a === b) continue;
    const [x, y] = a < b ? [a, b] : [b, a];
    if (seen.has(`${x},${y}`)) continue;
    seen.add(`${x},${y}`);
    list.push([x, y, 1 + (next() % 12), 0.8 + (next() % 200) / 1000]);
  }
  list.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  const lengths = Uint32Array.from({ length: n }, () => 50 + (next() % 500));
  return { count: n, representative, verified: pairs(list), lengths, grouping };
}

describe('the duplicate relation', () => {
  it('includes pairs implied by exact copies on either side (A ~ B, B = B2 gives A ~ B2)', () => {
    // 0 ~ 1 (J 0.9); 2 is a copy of 1; 3 is alone.
    const input: RelationInput = {
      count: 4,
      representative: Int32Array.from([0, 1, 1, 3]),
      verified: pairs([[0, 1, 5, 0.9]]),
      lengths: [100, 100, 100, 100],
    };
    const rel = buildDuplicateRelation(input);
    const seen: string[] = [];
    forEachRelationPair(rel, (g, a, b, d, j) => seen.push(`${g}:${a}-${b}:${d}:${j.toFixed(1)}`));
    // The reference's class comes first in each row (path_a), its copies' pair first.
    expect(seen).toEqual(['1:1-2:0:1.0', '1:1-0:5:0.9', '1:2-0:5:0.9']);
    expect(rel.pairCount).toBe(3);
    // One group holds the copies and the near-duplicate together; the two copies are the reference's
    // class (most documents near them), and 0 is near-identical.
    expect(rel.groups.count).toBe(1);
    const members = Array.from(rel.groups.members);
    expect(members.sort()).toEqual([0, 1, 2]);
    expect(rel.groups.reference[0]).toBe(1);
    expect(neighboursOf(rel, 0).map((x) => x.doc)).toEqual([1, 2]);
    expect(neighboursOf(rel, 2)).toEqual([
      { doc: 1, distance: 0, jaccard: 1, identical: true },
      { doc: 0, distance: 5, jaccard: expect.closeTo(0.9, 5), identical: false },
    ]);
  });

  it('a pinned document becomes its group’s reference', () => {
    const input: RelationInput = {
      count: 3,
      representative: Int32Array.from([0, 1, 2]),
      verified: pairs([
        [0, 1, 3, 0.9],
        [0, 2, 3, 0.9],
      ]),
      lengths: [10, 10, 10],
    };
    expect(buildDuplicateRelation(input).groups.reference[0]).toBe(0);
    const pinned = buildDuplicateRelation({ ...input, pinned: [2 as DocId] });
    const group = pinned.groups.groupOf[2];
    expect(pinned.groups.reference[group]).toBe(2);
    expect(pinned.groups.groupOf[0]).toBe(group);
    // 2's group holds 0; 1 is near 0 only, so its pair with 0 lies between two groups.
    expect(pinned.outside[0] + pinned.outside[1]).toBeGreaterThan(0);
  });

  for (const grouping of ['reference', 'components'] as const) {
    it(`lists every pair exactly once, and groups hold only true near-duplicates of the reference (${grouping})`, () => {
      for (let seed = 1; seed <= 25; seed++) {
        const input = randomInput(seed, 60, grouping);
        const truth = bruteForce(input);
        const rel = buildDuplicateRelation(input);
        const listed = new Map<string, number>();
        forEachRelationPair(rel, (g, a, b, d, j) => {
          const key = a < b ? `${a},${b}` : `${b},${a}`;
          listed.set(key, (listed.get(key) ?? 0) + 1);
          const t = truth.get(key);
          expect(t, `seed ${seed}: ${key} is not in the relation`).toBeDefined();
          expect(d).toBe(t!.distance);
          expect(j).toBeCloseTo(t!.jaccard, 5);
          expect(g).toBeGreaterThanOrEqual(1);
          expect(g).toBeLessThanOrEqual(rel.groups.count);
        });
        expect(listed.size, `seed ${seed}`).toBe(truth.size);
        for (const times of listed.values()) expect(times).toBe(1);
        expect(rel.pairCount).toBe(truth.size);

        const { groups } = rel;
        const everyDocInAGroup = new Set<number>();
        for (let g = 0; g < groups.count; g++) {
          const ref = groups.members[groups.offsets[g]];
          expect(groups.reference[g]).toBe(ref);
          for (let s = groups.offsets[g]; s < groups.offsets[g + 1]; s++) {
            const m = groups.members[s];
            everyDocInAGroup.add(m);
            if (s === groups.offsets[g]) continue;
            const key = ref < m ? `${ref},${m}` : `${m},${ref}`;
            if (grouping === 'reference' || !Number.isNaN(groups.jaccardToReference[s])) {
              expect(truth.has(key), `seed ${seed}: member ${m} of group ${g} is not near its reference ${ref}`).toBe(true);
              expect(rel.identical[s] === 1).toBe(truth.get(key)!.distance === 0 && input.representative[m] === input.representative[ref]);
            }
          }
        }
        // Every document of the relation is in some group; outside counts match the definition.
        for (const key of truth.keys()) {
          const [a, b] = key.split(',').map(Number);
          expect(everyDocInAGroup.has(a) && everyDocInAGroup.has(b)).toBe(true);
        }
        for (let d = 0; d < input.count; d++) {
          let out = 0;
          for (const key of truth.keys()) {
            const [a, b] = key.split(',').map(Number);
            if ((a === d || b === d) && groups.groupOf[a] !== groups.groupOf[b]) out++;
          }
          expect(rel.outside[d], `seed ${seed} doc ${d}`).toBe(out);
        }
      }
    });
  }

  it('exports 499,500 rows for 1,000 identical files, streamed in chunks', () => {
    const n = 1000;
    const rel = buildDuplicateRelation({ count: n, representative: new Int32Array(n), verified: pairs([]), lengths: new Uint32Array(n) });
    const paths = Array.from({ length: n }, (_, i) => `copy-${i}.txt`);
    let rows = -1; // the header
    let chunks = 0;
    let longest = 0;
    for (const chunk of pairsCsvBytes(rel, paths)) {
      chunks++;
      longest = Math.max(longest, chunk.length);
      for (const byte of chunk) if (byte === 0x0a) rows++;
    }
    expect(rows).toBe(499_500);
    expect(chunks).toBeGreaterThanOrEqual(10);
    expect(longest).toBeLessThan(1_100_000);
    expect(rel.exactGroup[0]).toBe(1);
  });

  it('writes identical texts as distance 0 and Jaccard 1, paths escaped', () => {
    const rel = buildDuplicateRelation({
      count: 3,
      representative: Int32Array.from([0, 0, 2]),
      verified: pairs([[0, 2, 4, 0.85]]),
      lengths: [100, 100, 100],
    });
    const csv = pairsCsvText(rel, ['a.txt', '=b.txt', 'c,d.txt']);
    expect(csv).toBe(
      '\uFEFFgroup,path_a,path_b,distance,similarity_estimate,jaccard,relation,containment\r\n' +
        "1,a.txt,'=b.txt,0,1.0000,1.0000,near-duplicate,\r\n" +
        '1,a.txt,"c,d.txt",4,0.9808,0.8500,near-duplicate,\r\n' +
        '1,\'=b.txt,"c,d.txt",4,0.9808,0.8500,near-duplicate,\r\n',
    );
  });
});
