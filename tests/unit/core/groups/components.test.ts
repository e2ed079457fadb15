import { describe, expect, it } from 'vitest';
import {
  CHAIN_FOUND,
  CHAIN_NONE,
  CHAIN_UNKNOWN,
  connectedComponents,
  detectChaining,
} from '../../../../src/core/groups/components.ts';
import { groupsOf, scored } from './helpers.ts';

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
const set = (values: number[]) => Uint32Array.from(values).sort();

describe('connectedComponents', () => {
  it('joins A~B and B~C into one component around the best-connected member', () => {
    const t = connectedComponents(4, scored([[0, 1, 0.85], [1, 2, 0.85]]));
    expect(groupsOf(t)).toEqual([[1, 0, 2]]);
    expect([...t.groupOf]).toEqual([0, 0, 0, -1]);
  });

  it('leaves the Jaccard of members not paired with the reference unknown until checked', () => {
    // 0-1-2-3 path: reference 1 (degree 2, lowest id); 3 is not paired with it.
    const t = connectedComponents(4, scored([[0, 1, 0.9], [1, 2, 0.9], [2, 3, 0.9]]));
    expect(groupsOf(t)).toEqual([[1, 0, 2, 3]]);
    expect(Number.isNaN(t.jaccardToReference[3])).toBe(true);
    expect(t.distanceToReference[3]).toBe(255);
  });
});

describe('detectChaining', () => {
  // A = 0..9, B = 2..11, C = 4..13: J(A,B) = J(B,C) = 8/12, J(A,C) = 6/14.
  const sets = [set(range(0, 10)), set(range(2, 12)), set(range(4, 14))];

  it('reports A~B, B~C, A!~C as a chain with its witness', () => {
    const pairs = scored([[0, 1, 0.9], [1, 2, 0.9]]);
    const t = connectedComponents(3, pairs);
    const report = detectChaining(t, pairs, (d) => sets[d]!, 0.5);
    expect(report.status[0]).toBe(CHAIN_FOUND);
    expect(report.chained).toBe(1);
    expect([report.witnessA[0], report.witnessB[0]].sort()).toEqual([0, 2]);
    expect(report.witnessJaccard[0]).toBeCloseTo(6 / 14, 6);
  });

  it("fills in each member's Jaccard to the reference, even after finding a chain", () => {
    // Path 0-1-2-3 with reference 1: 3 is unpaired with 1; J(1,3) = J(0,2) = 6/14, below 0.5.
    const path = [...sets, set(range(6, 16))];
    const pairs = scored([[0, 1, 0.9], [1, 2, 0.9], [2, 3, 0.9]]);
    const t = connectedComponents(4, pairs);
    const report = detectChaining(t, pairs, (d) => path[d]!, 0.5);
    expect(report.status[0]).toBe(CHAIN_FOUND);
    expect([report.witnessA[0], report.witnessB[0]]).toEqual([1, 3]);
    expect(t.jaccardToReference[3]).toBeCloseTo(6 / 14, 6);
  });

  it('does not flag a component whose unpaired members are near-duplicates after all', () => {
    const pairs = scored([[0, 1, 0.9], [1, 2, 0.9]]);
    const t = connectedComponents(3, pairs);
    const report = detectChaining(t, pairs, (d) => sets[d]!, 0.4);
    expect(report.status[0]).toBe(CHAIN_NONE);
    expect(report.chained).toBe(0);
    expect(report.checks).toBe(1);
  });

  it('needs no Jaccard at all for a clique', () => {
    const pairs = scored([[0, 1, 0.9], [1, 2, 0.9], [0, 2, 0.9]]);
    const t = connectedComponents(3, pairs);
    const report = detectChaining(t, pairs, () => {
      throw new Error('not needed');
    });
    expect(report.status[0]).toBe(CHAIN_NONE);
    expect(report.checks).toBe(0);
  });

  it('says "unknown" when the budget runs out before a verdict', () => {
    // A star of 6 around 0 whose leaves are all near-duplicates of each other but unpaired.
    const pairs = scored(range(1, 6).map((d): [number, number, number] => [0, d, 0.9]));
    const t = connectedComponents(6, pairs);
    const same = set([1, 2, 3]);
    const report = detectChaining(t, pairs, () => same, 0.8, { maxChecksPerGroup: 3 });
    expect(report.status[0]).toBe(CHAIN_UNKNOWN);
    expect(report.checks).toBe(3);
  });
});
