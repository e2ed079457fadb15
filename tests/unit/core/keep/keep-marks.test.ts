import { describe, expect, it } from 'vitest';
import { buildDuplicateRelation } from '../../../../src/core/groups/duplicate-relation.ts';
import { DEFAULT_KEEP_RULES, ROLE_KEEP, ROLE_REMOVE, ROLE_REVIEW, decideKeep } from '../../../../src/core/keep/keep-rules.ts';
import {
  NO_GROUP_FILTER,
  applyMarkAction,
  asSavedMarks,
  marksFromSaved,
  marksToSaved,
  reclaimableBytes,
  separatedMembers,
  separatedPartners,
  visibleGroups,
} from '../../../../src/core/keep/keep-marks.ts';

// Group 1: 0 with its copy 1 (identical copies only). Group 2: 2, its near-duplicate 3 (distance 5, J 0.82)
// and 4 (distance 1, J 0.97).
const relation = buildDuplicateRelation({
  count: 5,
  representative: Int32Array.from([0, 0, 2, 3, 4]),
  verified: {
    a: Uint32Array.from([2, 2]),
    b: Uint32Array.from([3, 4]),
    distance: Uint8Array.from([5, 1]),
    jaccard: Float32Array.from([0.82, 0.97]),
    count: 2,
  },
  lengths: [50, 50, 50, 50, 50],
});
const docs = { paths: ['a/x.txt', 'b/x.txt', 'c/y.txt', 'c/y2.txt', 'c/y3.txt'], sizes: [10, 10, 300, 200, 100] };
const rolesOf = (marks: Map<number, boolean>) => {
  const d = decideKeep(relation, docs, DEFAULT_KEEP_RULES, marks);
  return Array.from(d.docRole);
};

describe('mark actions', () => {
  const decision = decideKeep(relation, docs, DEFAULT_KEEP_RULES);
  const near = relation.groups.members.indexOf(3) < relation.groups.offsets[1]! ? 0 : 1;

  it('keep one, mark the rest; invert; clear; per group and for all', () => {
    expect(Array.from(decision.docRole)).toEqual([ROLE_KEEP, ROLE_REMOVE, ROLE_KEEP, ROLE_REVIEW, ROLE_REVIEW]);
    const one = applyMarkAction(new Map(), { kind: 'keep-one', group: near }, relation.groups, decision);
    expect(rolesOf(one)).toEqual([ROLE_KEEP, ROLE_REMOVE, ROLE_KEEP, ROLE_REMOVE, ROLE_REMOVE]);
    const inverted = applyMarkAction(new Map(), { kind: 'invert', group: 'all' }, relation.groups, decision);
    expect(rolesOf(inverted)).toEqual([ROLE_KEEP, ROLE_REVIEW, ROLE_KEEP, ROLE_REMOVE, ROLE_REMOVE]);
    const back = applyMarkAction(inverted, { kind: 'invert', group: 'all' }, relation.groups, decideKeep(relation, docs, DEFAULT_KEEP_RULES, inverted));
    expect(rolesOf(back)).toEqual(Array.from(decision.docRole));
    expect(applyMarkAction(inverted, { kind: 'clear', group: 'all' }, relation.groups, decision).size).toBe(0);
  });

  it('filters by kind, distance, Jaccard and size, and sorts by the bytes the marks would free', () => {
    const all = visibleGroups(relation, docs.sizes, decision, NO_GROUP_FILTER, 'group');
    expect(all).toEqual([0, 1]);
    expect(visibleGroups(relation, docs.sizes, decision, { ...NO_GROUP_FILTER, kind: 'identical' }, 'group').map((g) => relation.exactGroup[g])).toEqual([1]);
    expect(visibleGroups(relation, docs.sizes, decision, { ...NO_GROUP_FILTER, kind: 'near' }, 'group')).toEqual([near]);
    expect(visibleGroups(relation, docs.sizes, decision, { ...NO_GROUP_FILTER, kind: 'near', maxDistance: 0 }, 'group')).toEqual([]);
    expect(visibleGroups(relation, docs.sizes, decision, { ...NO_GROUP_FILTER, kind: 'near', maxDistance: 1 }, 'group')).toEqual([near]);
    expect(visibleGroups(relation, docs.sizes, decision, { ...NO_GROUP_FILTER, kind: 'near', minJaccard: 0.99 }, 'group')).toEqual([]);
    expect(visibleGroups(relation, docs.sizes, decision, { ...NO_GROUP_FILTER, minSize: 100 }, 'group')).toEqual([near]);
    const one = applyMarkAction(new Map(), { kind: 'keep-one', group: near }, relation.groups, decision);
    const marked = decideKeep(relation, docs, DEFAULT_KEEP_RULES, one);
    expect(Array.from(reclaimableBytes(relation.groups, docs.sizes, marked))[near]).toBe(300);
    expect(visibleGroups(relation, docs.sizes, marked, NO_GROUP_FILTER, 'reclaimable')).toEqual([near, 1 - near]);
  });

  it('saves marks and the ignore list by path, and reads them back onto other ids', () => {
    const saved = marksToSaved(new Map([[1, true], [3, false]]), new Set([4]), docs.paths);
    expect(asSavedMarks(JSON.parse(JSON.stringify(saved)))).toEqual(saved);
    expect(asSavedMarks({ marks: [[1, true]], ignored: [] })).toBeNull();
    const moved = ['c/y3.txt', 'b/x.txt', 'new.txt', 'c/y2.txt'];
    expect(marksFromSaved(saved, moved)).toEqual({ marks: new Map([[1, true], [3, false]]), ignored: new Set([0]), separated: [] });
  });

  it('a pair marked not a duplicate is saved by path like the marks, and takes only its member out of its group', () => {
    // 3 said not to be a duplicate of 2 (its group's reference); 2 keeps its other match, 4.
    const saved = marksToSaved(new Map([[1, true]]), new Set(), docs.paths, [[3, 2]]);
    expect(saved.separated).toEqual([['c/y.txt', 'c/y2.txt']]);
    expect(asSavedMarks(JSON.parse(JSON.stringify(saved)))).toEqual(saved);
    // A record saved before pair marks existed reads as having none.
    expect(asSavedMarks({ marks: [], ignored: [] })).toEqual({ marks: [], ignored: [], separated: [] });
    expect(asSavedMarks({ marks: [], ignored: [], separated: [['a', 1]] })).toBeNull();
    const moved = ['c/y2.txt', 'c/y.txt', 'c/y3.txt'];
    expect(marksFromSaved(saved, moved).separated).toEqual([[0, 1]]);
    // A pair with a path no longer there is dropped.
    expect(marksFromSaved(saved, ['c/y.txt']).separated).toEqual([]);

    const out = separatedMembers(relation.groups, [[2, 3]]);
    expect([...out]).toEqual([3]);
    const d = decideKeep(relation, docs, DEFAULT_KEEP_RULES, new Map([[4, true]]), out);
    expect(d.docRole[3]).not.toBe(ROLE_REMOVE);
    expect(d.reason[relation.groups.members.indexOf(3)]).toBe('ignored');
    expect(d.docRole[4]).toBe(ROLE_REMOVE);
    // A pair of two members (neither the reference) takes no member out of the group.
    expect(separatedMembers(relation.groups, [[3, 4]]).size).toBe(0);
  });
});

describe('separatedPartners', () => {
  it('lists each document\'s partners both ways, and no document that is in no pair', () => {
    const partners = separatedPartners([[2, 3], [3, 4]]);
    expect(partners.get(2)).toEqual([3]);
    expect(partners.get(3)).toEqual([2, 4]);
    expect(partners.get(4)).toEqual([3]);
    expect(partners.has(0)).toBe(false);
    expect(separatedPartners([]).size).toBe(0);
  });
});
