import { describe, expect, it } from 'vitest';
import { referenceGroups } from '../../../../src/core/groups/reference-groups.ts';
import { groupsOf, scored } from './helpers.ts';

describe('referenceGroups', () => {
  it('centres a chain A~B, B~C on B, so every member is verified against the reference', () => {
    const t = referenceGroups(3, scored([[0, 1, 0.85], [1, 2, 0.9]]));
    expect(groupsOf(t)).toEqual([[1, 2, 0]]);
    expect(t.reference[0]).toBe(1);
    expect([...t.jaccardToReference]).toEqual([1, Math.fround(0.9), Math.fround(0.85)]);
    expect([...t.distanceToReference]).toEqual([0, 3, 3]);
    expect([...t.groupOf]).toEqual([0, 0, 0]);
  });

  it('puts each document in at most one group and leaves the rest ungrouped', () => {
    // Path 0-1-2-3: 1 and 2 tie on degree; the lower id wins; 3 is then left without an ungrouped neighbour.
    const t = referenceGroups(5, scored([[0, 1, 0.9], [1, 2, 0.9], [2, 3, 0.9]]));
    expect(groupsOf(t)).toEqual([[1, 0, 2]]);
    expect([...t.groupOf]).toEqual([0, 0, 0, -1, -1]);
  });

  it('breaks degree ties by document length, longer first', () => {
    const t = referenceGroups(4, scored([[0, 1, 0.9], [1, 2, 0.9], [2, 3, 0.9]]), { lengths: [10, 10, 50, 10] });
    expect(groupsOf(t)).toEqual([[2, 1, 3]]);
  });

  it('re-ranks candidates as their neighbours are taken (greedy on ungrouped degree)', () => {
    // 0 is a hub of 1..4; 5 is linked to 1, 2, 6. After 0's group takes 1..4, 5 has one ungrouped neighbour.
    const t = referenceGroups(7, scored([
      [0, 1, 0.9], [0, 2, 0.9], [0, 3, 0.9], [0, 4, 0.9],
      [5, 1, 0.9], [5, 2, 0.9], [5, 6, 0.9],
    ]));
    expect(groupsOf(t)).toEqual([[0, 1, 2, 3, 4], [5, 6]]);
    const members = [...t.members];
    expect(new Set(members).size).toBe(members.length);
  });

  it('orders members by decreasing Jaccard to the reference', () => {
    const t = referenceGroups(4, scored([[0, 1, 0.81], [0, 2, 0.99], [0, 3, 0.9]]));
    expect(groupsOf(t)).toEqual([[0, 2, 3, 1]]);
  });

  it('returns no groups without pairs', () => {
    const t = referenceGroups(3, scored([]));
    expect(t.count).toBe(0);
    expect([...t.offsets]).toEqual([0]);
    expect([...t.groupOf]).toEqual([-1, -1, -1]);
  });
});
