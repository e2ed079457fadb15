import { describe, expect, it } from 'vitest';
import { exportApi } from '../../../src/workers/export-api.ts';
import { buildDuplicateRelation } from '../../../src/core/groups/duplicate-relation.ts';
import { planCsv, planJson, planRows } from '../../../src/core/export/plan.ts';
import { DEFAULT_KEEP_RULES, decideKeep } from '../../../src/core/keep/keep-rules.ts';

// 0 and its copy 1; 2 with its near-duplicate 3 (distance 4, J 0.85); 4 alone.
const relation = buildDuplicateRelation({
  count: 5,
  representative: Int32Array.from([0, 0, 2, 3, 4]),
  verified: { a: Uint32Array.of(2), b: Uint32Array.of(3), distance: Uint8Array.of(4), jaccard: Float32Array.of(0.85), count: 1 },
  lengths: [10, 10, 10, 10, 10],
});
const docs = {
  paths: ['a/x.txt', 'b/x.txt', 'c/y.txt', 'c/y2.txt', 'z.txt'],
  sizes: [10, 10, 30, 20, 5],
  modified: [1e12, 2e12, 3e12, 0, 0],
  hashHi: Uint32Array.from([1, 1, 2, 3, 4]),
  hashLo: Uint32Array.from([5, 5, 6, 7, 8]),
  bytesHashes: new Map([[0, '00000000000000aa']]),
};

describe('the plan the export worker builds', () => {
  const decision = decideKeep(relation, docs, { ...DEFAULT_KEEP_RULES, order: ['newest'] }, new Map([[3, true]]));
  it('is the core plan of the same decision, as JSON and as CSV, with the root given', async () => {
    const rows = planRows(relation, docs, decision);
    const json = exportApi.plan(relation, docs, decision, 'json', '/srv/data');
    expect(json.rows).toBe(4);
    expect(json.blob.type).toBe('application/json;charset=utf-8');
    expect(await json.blob.text()).toBe(planJson(rows, '/srv/data'));
    const csv = exportApi.plan(relation, docs, decision, 'csv', null);
    expect(csv.blob.type).toBe('text/csv;charset=utf-8');
    expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(await csv.blob.arrayBuffer())).toBe(planCsv(rows, null));
  });
});
