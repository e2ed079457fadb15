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
    expect(moves.map((m) => [m.row.path, m.kept.path])).toEqual([
      ['b.txt', 'a.txt'],
      ['c.pdf', 'render.pdf'],
      ['d.txt', 'render.pdf'],
    ]);
    expect(refused).toEqual([{ path: 'render.pdf', why: 'kept by the plan (group 1)' }]);
  });
});
