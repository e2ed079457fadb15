import { describe, expect, it } from 'vitest';
import { ContainedBuffer, nameByFirstCopy } from '../../../../src/core/groups/contained-pairs.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';

const SEED = Number(process.env.SIMSIFT_NAMING_SEED ?? Date.now() % 2 ** 31);

describe('nameByFirstCopy', () => {
  it(`names each side by the first copy of its text and sorts the pairs by (inner, outer), renamed or not (seed ${SEED}; SIMSIFT_NAMING_SEED to repeat)`, () => {
    const random = mulberry32(SEED);
    for (let c = 0; c < 40; c++) {
      const n = 2 + (random() % 60);
      // Copies point at a representative that may come after them (the copy fingerprinted first); some have none.
      const representative = Int32Array.from({ length: n }, (_, d) => d);
      if (c % 3 > 0) for (let d = 0; d < n; d++) if (random() % 3 === 0) representative[d] = random() % 5 === 0 ? -1 : random() % n;
      for (let d = 0; d < n; d++) if (representative[d] >= 0) representative[d] = representative[representative[d]] >= 0 ? representative[representative[d]] : d;
      const found = new ContainedBuffer();
      const seen = new Set<string>();
      for (let k = random() % 80; k > 0; k--) {
        const a = random() % n;
        const b = random() % n;
        if (a === b || representative[a] === representative[b] || seen.has(`${a},${b}`) || seen.has(`${b},${a}`)) continue;
        seen.add(`${a},${b}`);
        found.judge(a, b, 10, 10, 12, { threshold: 0.9, jaccardThreshold: 0.9 });
      }
      const pairs = found.pairs();
      const first = (d: number) => (representative[d] < 0 ? d : representative.findIndex((r) => r === representative[d]));
      const want = Array.from({ length: pairs.count }, (_, i) => [first(pairs.inner[i]), first(pairs.outer[i]), pairs.containment[i], pairs.jaccard[i]]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
      const got = nameByFirstCopy(pairs, representative);
      const rows = Array.from({ length: got.count }, (_, i) => [got.inner[i], got.outer[i], got.containment[i], got.jaccard[i]]);
      expect(rows, `seed ${SEED}, case ${c}`).toEqual(want);
    }
  });
});
