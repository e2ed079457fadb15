import { describe, expect, it } from 'vitest';
import { mulberry32Unit } from '../../../fixtures/mulberry32.ts';
import {
  allocateDocColumns,
  concatDocColumns,
  DOC_COLUMN_NAMES,
  docColumnBuffers,
  gatherDocColumns,
  scatterDocColumns,
  subarrayDocColumns,
  type DocColumns,
} from '../../../../src/core/documents/doc-columns.ts';

/** Columns of `n` documents where every entry says its column and position. */
function numbered(n: number, base = 0): DocColumns {
  const cols = allocateDocColumns(DOC_COLUMN_NAMES, n);
  DOC_COLUMN_NAMES.forEach((c, k) => {
    for (let i = 0; i < n; i++) cols[c][i] = (k * 10 + base + i) % 256;
  });
  return cols;
}

describe('document columns', () => {
  it('allocates each column in its kind, zeroed', () => {
    const cols = allocateDocColumns(DOC_COLUMN_NAMES, 3);
    expect(cols.sizes).toBeInstanceOf(Float64Array);
    expect(cols.modified).toBeInstanceOf(Float64Array);
    expect(cols.status).toBeInstanceOf(Uint8Array);
    expect(cols.hashLo).toBeInstanceOf(Uint32Array);
    for (const c of DOC_COLUMN_NAMES) expect(Array.from(cols[c])).toEqual([0, 0, 0]);
  });

  it('puts every column in one aligned buffer when asked, widest first', () => {
    const cols = allocateDocColumns(DOC_COLUMN_NAMES, 5, true);
    expect(docColumnBuffers(cols, DOC_COLUMN_NAMES)).toHaveLength(1);
    expect(cols.sizes.byteOffset).toBe(0);
    expect(cols.modified.byteOffset).toBe(40);
    expect(cols.hi.byteOffset).toBe(80);
    expect(cols.flags.byteOffset).toBe(80 + 5 * 20 + 5);
    expect(cols.sizes.buffer.byteLength).toBe(5 * (2 * 8 + 5 * 4 + 2));
    cols.hashLo[4] = 7;
    expect(cols.hashLo[4]).toBe(7);
    expect(cols.status[4]).toBe(0);
  });

  it('gathers, concatenates, scatters and slices every column alike', () => {
    const a = numbered(4);
    const b = numbered(2, 100);
    const both = concatDocColumns(DOC_COLUMN_NAMES, [
      { count: 4, ...a },
      { count: 2, ...b },
    ]);
    const gathered = gatherDocColumns(both, DOC_COLUMN_NAMES, [5, 0, 3]);
    const into = allocateDocColumns(DOC_COLUMN_NAMES, 6);
    scatterDocColumns(into, DOC_COLUMN_NAMES, gathered, [5, 0, 3]);
    const view = subarrayDocColumns(both, DOC_COLUMN_NAMES, 4, 6);
    for (const c of DOC_COLUMN_NAMES) {
      expect(Array.from(both[c])).toEqual([...Array.from(a[c]), ...Array.from(b[c])]);
      expect(Array.from(gathered[c])).toEqual([b[c][1], a[c][0], a[c][3]]);
      expect(Array.from(into[c])).toEqual([a[c][0], 0, 0, a[c][3], 0, b[c][1]]);
      expect(Array.from(view[c])).toEqual(Array.from(b[c]));
      expect(view[c].buffer).toBe(both[c].buffer);
    }
  });

  it('concatenates a part without an optional column as zeros', () => {
    const out = concatDocColumns(['modified'], [{ count: 2, modified: Float64Array.of(5, 6) }, { count: 3 }]);
    expect(Array.from(out.modified)).toEqual([5, 6, 0, 0, 0]);
  });

  it('gathers runs of consecutive positions as a position-by-position gather does (seeded random runs and holes)', () => {
    const n = 500;
    const cols = allocateDocColumns(['hi', 'sizes', 'modified', 'status'], n);
    for (let i = 0; i < n; i++) [cols.hi[i], cols.sizes[i], cols.modified[i], cols.status[i]] = [i * 7, i * 3 + 1, i + 0.5, i % 5];
    for (let seed = 1; seed <= 30; seed++) {
      const next = mulberry32Unit(seed);
      // Nearly everything in order with a few left out and a few moved (a merge's keep and path order), or shuffled.
      const at = Array.from({ length: n }, (_, i) => i).filter(() => next() > 0.02);
      for (let k = 0; k < 3; k++) at.splice(Math.floor(next() * at.length), 0, Math.floor(next() * n));
      if (seed % 5 === 0) at.sort(() => next() - 0.5);
      const got = gatherDocColumns(cols, ['hi', 'sizes', 'modified', 'status'], at);
      for (const c of ['hi', 'sizes', 'modified', 'status'] as const) expect([...got[c]], `seed ${seed} ${c}`).toEqual(at.map((p) => cols[c][p]));
    }
  });
});
