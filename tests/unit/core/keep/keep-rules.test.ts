import { describe, expect, it } from 'vitest';
import { buildDuplicateRelation } from '../../../../src/core/groups/duplicate-relation.ts';
import type { ScoredPairs } from '../../../../src/core/groups/group-table.ts';
import {
  DEFAULT_KEEP_RULES,
  ROLE_KEEP,
  ROLE_REMOVE,
  ROLE_REVIEW,
  asKeepRules,
  decideKeep,
  parseKeepOrder,
  unmatchedFolders,
  type KeepRules,
} from '../../../../src/core/keep/keep-rules.ts';

function pairs(list: [number, number, number, number][]): ScoredPairs {
  return {
    a: Uint32Array.from(list.map((p) => p[0])),
    b: Uint32Array.from(list.map((p) => p[1])),
    distance: Uint8Array.from(list.map((p) => p[2])),
    jaccard: Float32Array.from(list.map((p) => p[3])),
    count: list.length,
  };
}

// One group: 0 "articles/bicycle.txt" (reference text) with copies 1 and 2, and a near-duplicate
// draft 3 (different text, verified pair at distance 0) with its own copy 4.
const paths = ['articles/bicycle.txt', 'backup/bicycle.txt', 'old/archive/bicycle-copy.txt', 'drafts/bicycle-sentence-added.txt', 'drafts/x.txt'];
const sizes = [100, 100, 100, 120, 120];
const modified = [1_000, 3_000, 2_000, 5_000, 0];
const relation = buildDuplicateRelation({
  count: 5,
  representative: Int32Array.from([0, 0, 0, 3, 3]),
  verified: pairs([[0, 3, 0, 0.9]]),
  lengths: [50, 50, 50, 55, 55],
});
const docs = { paths, sizes, modified };
const rules = (r: Partial<KeepRules>): KeepRules => ({ ...DEFAULT_KEEP_RULES, ...r });
const roleOf = (decision: ReturnType<typeof decideKeep>) => Array.from({ length: 5 }, (_, d) => decision.docRole[d]);

describe('decideKeep', () => {
  it('keeps the reference by default, marks its identical copies and leaves the near-duplicates to review', () => {
    const d = decideKeep(relation, docs, DEFAULT_KEEP_RULES);
    expect(relation.groups.count).toBe(1);
    expect(paths[d.keeper[0]]).toBe('articles/bicycle.txt');
    // The draft's text differs (distance 0, not identical): never marked by the rule for copies; one copy
    // of it (3, path order) is left to review and its identical copy 4 is removed.
    expect(roleOf(d)).toEqual([ROLE_KEEP, ROLE_REMOVE, ROLE_REMOVE, ROLE_REVIEW, ROLE_REMOVE]);
    expect(d.removeFiles).toBe(3);
    expect(d.removeBytes).toBe(320);
  });

  it('newest first keeps the newest file; identical copies of it are removed; one copy of the older text is reviewed, its copies removed', () => {
    const d = decideKeep(relation, docs, rules({ order: ['newest'] }));
    expect(paths[d.keeper[0]]).toBe('drafts/bicycle-sentence-added.txt');
    // 4 is a copy of the kept draft (unknown time never wins); 0..2 are one different text (the issue's "newest
    // is a PDF rendering" case): the newest of them (1) is left to review, its identical copies are removed.
    expect(roleOf(d)).toEqual([ROLE_REMOVE, ROLE_REVIEW, ROLE_REMOVE, ROLE_KEEP, ROLE_REMOVE]);
    expect(d.reason[relation.groups.members.indexOf(0)]).toBe('copy-of-review');
    expect(d.reason[relation.groups.members.indexOf(1)]).toBe('near-duplicate');
    const s4 = relation.groups.members.indexOf(4);
    expect(d.reason[s4]).toBe('newest');
    expect(d.identical[s4]).toBe(1);
  });

  it('a protected folder keeps everything under it and wins when it comes first', () => {
    const d = decideKeep(relation, docs, rules({ order: ['protected', 'newest'], protectedFolders: ['old/'] }));
    expect(paths[d.keeper[0]]).toBe('old/archive/bicycle-copy.txt');
    const reasonOf = (doc: number) => d.reason[relation.groups.members.indexOf(doc)];
    expect(reasonOf(2)).toBe('protected');
    // Copies of the kept text: removed, decided by the protected rule; the other text: review.
    expect(roleOf(d)).toEqual([ROLE_REMOVE, ROLE_REMOVE, ROLE_KEEP, ROLE_REVIEW, ROLE_REMOVE]);
    expect(reasonOf(1)).toBe('protected');
  });

  it('a protected file is kept even when another rule picks the kept file', () => {
    const d = decideKeep(relation, docs, rules({ order: ['newest', 'protected'], protectedFolders: ['backup'] }));
    expect(paths[d.keeper[0]]).toBe('drafts/bicycle-sentence-added.txt');
    expect(d.docRole[1]).toBe(ROLE_KEEP);
    expect(d.reason[relation.groups.members.indexOf(1)]).toBe('protected');
  });

  it('path rules, size rules, then the reference rule and path order break ties', () => {
    expect(paths[decideKeep(relation, docs, rules({ order: ['shortest-path'] })).keeper[0]]).toBe('drafts/x.txt');
    expect(paths[decideKeep(relation, docs, rules({ order: ['longest-path'] })).keeper[0]]).toBe('drafts/bicycle-sentence-added.txt');
    // largest: 3 and 4 tie at 120, neither is the reference or its copy: path order picks drafts/bicycle-... (before drafts/x.txt).
    const largest = decideKeep(relation, docs, rules({ order: ['largest'] }));
    expect(paths[largest.keeper[0]]).toBe('drafts/bicycle-sentence-added.txt');
    expect(largest.reason[relation.groups.members.indexOf(3)]).toBe('path-order');
    // smallest: 0, 1, 2 tie; the reference rule keeps the group's reference.
    const smallest = decideKeep(relation, docs, rules({ order: ['smallest'] }));
    expect(smallest.keeper[0]).toBe(0);
    expect(smallest.reason[relation.groups.members.indexOf(0)]).toBe('reference');
    expect(smallest.reason[relation.groups.members.indexOf(3)]).toBe('near-duplicate');
    expect(smallest.reason[relation.groups.members.indexOf(1)]).toBe('reference');
    expect(paths[decideKeep(relation, docs, rules({ order: ['oldest'] })).keeper[0]]).toBe('articles/bicycle.txt');
  });

  it('marks near-duplicates only when asked, and the person toggles single documents', () => {
    const near = decideKeep(relation, docs, rules({ markNear: true }));
    expect(roleOf(near)).toEqual([ROLE_KEEP, ROLE_REMOVE, ROLE_REMOVE, ROLE_REMOVE, ROLE_REMOVE]);
    const marks = new Map([
      [1, false],
      [3, true],
      [0, true], // the kept file: never removed
    ]);
    const toggled = decideKeep(relation, docs, DEFAULT_KEEP_RULES, marks);
    // 3 marked: its copy 4 is the one left to review (a marked copy is never the one left).
    expect(roleOf(toggled)).toEqual([ROLE_KEEP, ROLE_REVIEW, ROLE_REMOVE, ROLE_REMOVE, ROLE_REVIEW]);
    expect(toggled.reason[relation.groups.members.indexOf(1)]).toBe('unmarked');
    expect(toggled.reason[relation.groups.members.indexOf(3)]).toBe('marked');
    expect(toggled.removeBytes).toBe(220);
  });

  it('ignored documents ("not a duplicate") are never kept nor removed, and the rules choose among the rest', () => {
    const d = decideKeep(relation, docs, DEFAULT_KEEP_RULES, new Map([[2, true]]), new Set([0, 2]));
    // 0 (the reference) is ignored: its copy 1 is kept (the reference rule's next: an identical copy).
    expect(d.keeper[0]).toBe(1);
    expect(roleOf(d)).toEqual([ROLE_REVIEW, ROLE_KEEP, ROLE_REVIEW, ROLE_REVIEW, ROLE_REMOVE]);
    expect(d.reason[relation.groups.members.indexOf(2)]).toBe('ignored');
    expect(d.removeFiles).toBe(1);
  });

  it('a document kept in one group is never removed in another', () => {
    // 0 ~ 1 and 1 ~ 2 but 0 !~ 2, 1 and 3 identical: groups around 1 and a leftover group around ... (reference-centred).
    const rel = buildDuplicateRelation({
      count: 4,
      representative: Int32Array.from([0, 1, 2, 1]),
      verified: pairs([
        [0, 1, 3, 0.85],
        [1, 2, 3, 0.85],
      ]),
      lengths: [10, 10, 10, 10],
    });
    const p = ['a.txt', 'b.txt', 'c.txt', 'z/b-copy.txt'];
    const d = decideKeep(rel, { paths: p, sizes: [1, 1, 1, 1] }, rules({ order: ['longest-path'], markNear: true }));
    for (let s = 0; s < rel.groups.members.length; s++) {
      const doc = rel.groups.members[s];
      expect(d.role[s]).toBe(d.docRole[doc]);
    }
    // Every removed document has a kept document in a group it shares.
    for (let g = 0; g < rel.groups.count; g++) expect(d.docRole[d.keeper[g]]).toBe(ROLE_KEEP);
  });
});

describe('keep rules as text and saved values', () => {
  it('parses the CLI order and refuses unknown or repeated rules', () => {
    expect(parseKeepOrder('protected, newest,largest')).toEqual(['protected', 'newest', 'largest']);
    expect(() => parseKeepOrder('newest,newer')).toThrow(/unknown keep rule "newer"/);
    expect(() => parseKeepOrder('newest,newest')).toThrow(/twice/);
  });

  it('checks a saved value', () => {
    expect(asKeepRules({ order: ['newest'], protectedFolders: ['a'], markNear: true })).toEqual({ order: ['newest'], protectedFolders: ['a'], markNear: true });
    expect(asKeepRules({ order: ['nope'], protectedFolders: [], markNear: false })).toBeNull();
    expect(asKeepRules({ order: [], protectedFolders: [1], markNear: false })).toBeNull();
    expect(asKeepRules(null)).toBeNull();
  });
});

describe('unmatchedFolders', () => {
  it('names each protected folder under which no path lies: a typo, another case, an absolute path', () => {
    const list = ['docs/old/a.txt', 'docs/new/b.txt', 'top.txt'];
    expect(unmatchedFolders(list, ['docs/old', 'docs', 'docs/OLD', '/home/me/docs/old', 'docs/ol', 'top.txt/'])).toEqual(['docs/OLD', 'home/me/docs/old', 'docs/ol']);
    expect(unmatchedFolders(list, [])).toEqual([]);
  });
});
