import { describe, expect, it } from 'vitest';
import { planMoves } from '../../../../src/core/export/plan-moves.ts';
import type { PlanRow } from '../../../../src/core/export/plan.ts';

const row = (path: string, role: PlanRow['role'], match: PlanRow['match'], hash: string, reason: PlanRow['reason'] = 'newest'): PlanRow => ({
  group: 1, path, role, reason, match, size: 1, modified: null, content_hash: hash, bytes_hash: hash, distance: 0, jaccard: 1,
});

describe('planMoves', () => {
  it('checks each removal against a file of its own text that stays: the kept file, or the copy left to review', () => {
    const rows = [
      row('render.pdf', 'keep', 'kept', 'aaaaaaaaaaaaaaaa'),
      row('a.txt', 'review', 'near-duplicate', 'bbbbbbbbbbbbbbbb', 'near-duplicate'),
      row('b.txt', 'remove', 'near-duplicate', 'bbbbbbbbbbbbbbbb', 'copy-of-review'),
      row('c.pdf', 'remove', 'identical', 'aaaaaaaaaaaaaaaa'),
      row('d.txt', 'remove', 'near-duplicate', 'cccccccccccccccc', 'marked'),
      row('render.pdf', 'remove', 'identical', 'aaaaaaaaaaaaaaaa'),
    ];
    const { moves, refused } = planMoves(rows);
    expect(moves.map((m) => [m.row.path, m.kept[0]!.path])).toEqual([
      ['b.txt', 'a.txt'],
      ['c.pdf', 'render.pdf'],
      ['d.txt', 'render.pdf'],
    ]);
    expect(refused).toEqual([{ path: 'render.pdf', why: 'kept by the plan (group 1)' }]);
  });

  it('never removes a file another removal counts on as its kept file (two review rows naming each other: both copies would leave)', () => {
    const inGroup = (group: number, r: PlanRow): PlanRow => ({ ...r, group });
    const rows = [
      inGroup(1, row('k1.txt', 'keep', 'kept', 'aaaaaaaaaaaaaaaa')),
      inGroup(1, row('x.txt', 'review', 'near-duplicate', 'bbbbbbbbbbbbbbbb', 'near-duplicate')),
      inGroup(1, row('y.txt', 'remove', 'near-duplicate', 'bbbbbbbbbbbbbbbb', 'copy-of-review')),
      inGroup(2, row('k2.txt', 'keep', 'kept', 'cccccccccccccccc')),
      inGroup(2, row('y.txt', 'review', 'near-duplicate', 'bbbbbbbbbbbbbbbb', 'near-duplicate')),
      inGroup(2, row('x.txt', 'remove', 'near-duplicate', 'bbbbbbbbbbbbbbbb', 'copy-of-review')),
    ];
    const { moves, refused } = planMoves(rows);
    expect(moves).toEqual([]);
    expect(refused.map((r) => r.path).sort()).toEqual(['x.txt', 'y.txt']);
    expect(refused[0]!.why).toMatch(/kept file of .* in group/);
  });

  it('refuses a path marked remove in a group that keeps nothing, whatever another group says, and names every kept file', () => {
    const inGroup = (group: number, r: PlanRow): PlanRow => ({ ...r, group });
    const rows = [
      inGroup(1, row('k.txt', 'keep', 'kept', 'aaaaaaaaaaaaaaaa')),
      inGroup(1, row('y.txt', 'remove', 'identical', 'aaaaaaaaaaaaaaaa')),
      inGroup(2, row('y.txt', 'remove', 'identical', 'aaaaaaaaaaaaaaaa')),
      inGroup(1, row('z.txt', 'remove', 'identical', 'aaaaaaaaaaaaaaaa')),
      inGroup(3, row('j.txt', 'keep', 'kept', 'bbbbbbbbbbbbbbbb')),
      inGroup(3, row('z.txt', 'remove', 'near-duplicate', 'aaaaaaaaaaaaaaaa')),
    ];
    const { moves, refused } = planMoves(rows);
    expect(refused).toEqual([{ path: 'y.txt', why: 'group 2 has no kept file in the plan' }]);
    expect(moves.map((m) => [m.row.path, m.kept.map((k) => k.path)])).toEqual([['z.txt', ['k.txt', 'j.txt']]]);
  });
});
