import { describe, expect, it } from 'vitest';
import { buildDuplicateRelation } from '../../../../src/core/groups/duplicate-relation.ts';
import { DEFAULT_KEEP_RULES, decideKeep } from '../../../../src/core/keep/keep-rules.ts';
import { parsePlan, parsePlanJson, planCsv, planJson, planRootOf, planRows } from '../../../../src/core/export/plan.ts';

// Group: 0 and its copy 2, near-duplicate 1 at distance 0 (a different text), near-duplicate 3 at distance 4.
const relation = buildDuplicateRelation({
  count: 5,
  representative: Int32Array.from([0, 1, 0, 3, -1]),
  verified: {
    a: Uint32Array.from([0, 0]),
    b: Uint32Array.from([1, 3]),
    distance: Uint8Array.from([0, 4]),
    jaccard: Float32Array.from([0.99999, 0.8125]),
    count: 2,
  },
  lengths: [60, 60, 60, 60, 0],
});
const docs = {
  paths: ['d/a.txt', 'd/b.txt', 'd/=a copy, "2".txt', 'd/c.txt', 'd/bin.dat'],
  sizes: [10, 11, 10, 12, 5],
  modified: [Date.UTC(2026, 0, 2, 3, 4, 5), 0, Date.UTC(2025, 11, 31), 1, 0],
  hashHi: [0xabc, 0x1, 0xabc, 0x2, 0],
  hashLo: [0xdef, 0x1, 0xdef, 0x2, 0],
};

describe('the plan', () => {
  const rows = planRows(relation, docs, decideKeep(relation, docs, DEFAULT_KEEP_RULES));

  it('lists every document of every group with its role, reason, match, measures to the kept file', () => {
    expect(rows.map((r) => [r.path, r.role, r.reason, r.match, r.distance, r.jaccard])).toEqual([
      ['d/a.txt', 'keep', 'reference', 'kept', 0, 1],
      ['d/=a copy, "2".txt', 'remove', 'reference', 'identical', 0, 1],
      // A different text at distance 0 is told apart from the identical copy by `match`, and its Jaccard never reads 1.
      ['d/b.txt', 'review', 'near-duplicate', 'near-duplicate', 0, 0.9999],
      ['d/c.txt', 'review', 'near-duplicate', 'near-duplicate', 4, 0.8125],
    ]);
    expect(rows[0]).toMatchObject({ group: 1, size: 10, modified: '2026-01-02T03:04:05.000Z', content_hash: '00000abc00000def' });
    expect(rows[2]!.modified).toBeNull();
  });

  it('writes CSV through csv.ts (BOM, CRLF, quoting and formula escape) and JSON that reads back', () => {
    const csv = planCsv(rows);
    expect(csv.startsWith('\uFEFFgroup,path,role,reason,match,size,modified,content_hash,bytes_hash,distance,jaccard,root\r\n')).toBe(true);
    expect(csv).toContain('\r\n1,"d/=a copy, ""2"".txt",remove,reference,identical,10,2025-12-31T00:00:00.000Z,00000abc00000def,,0,1.0000,\r\n');
    expect(csv).toContain('1,d/b.txt,review,near-duplicate,near-duplicate,11,,0000000100000001,,0,0.9999,\r\n');
    expect(parsePlanJson(planJson(rows))).toEqual(rows);
    // The CSV reads back to the same rows (BOM, quotes and the formula escape undone); the app's records no root.
    expect(parsePlan(csv)).toEqual({ root: null, rows });
    expect(parsePlan(planCsv(rows, '/data/scanned'))).toEqual({ root: '/data/scanned', rows });
    expect(parsePlan(planJson(rows, '/data/scanned')).root).toBe('/data/scanned');
  });

  it('refuses a file that is not a plan', () => {
    expect(() => parsePlanJson('{"rows": []}')).toThrow(/not a plan/);
    expect(() => parsePlanJson('{"format":"simsift-plan","version":1,"rows":[{"path":3}]}')).toThrow(/row 1/);
  });
});

describe('planRootOf', () => {
  it('is the kept root of the one folder every path lies in, else null', () => {
    const roots = { docs: '/srv/parent' };
    expect(planRootOf(roots, ['docs/a.txt', 'docs/sub/b.txt'])).toBe('/srv/parent');
    // A folder added beside it, a folder with no root, a path outside any folder, no documents: no root.
    expect(planRootOf(roots, ['docs/a.txt', 'other/b.txt'])).toBeNull();
    expect(planRootOf(roots, ['other/b.txt'])).toBeNull();
    expect(planRootOf(roots, ['docs'])).toBeNull();
    expect(planRootOf(roots, [])).toBeNull();
    expect(planRootOf({}, ['docs/a.txt'])).toBeNull();
    // A folder named like an Object property is no root.
    expect(planRootOf(roots, ['constructor/a.txt'])).toBeNull();
  });
});
