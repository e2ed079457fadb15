import { describe, expect, it } from 'vitest';
import { concatSets, PackedSetsJoin, type PackedSets } from '../../../../src/core/groups/packed-sets.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';

const SEED = Number(process.env.SIMSIFT_JOIN_SEED ?? Date.now() % 2 ** 31);

/** A random part: `docs` ids from `from` up, each with a few sorted keys, offsets from 0. */
function randomPart(random: () => number, from: number): PackedSets {
  const n = random() % 40;
  const docs = Uint32Array.from({ length: n }, (_, i) => from + i);
  const offsets = new Uint32Array(n + 1);
  const keys: number[] = [];
  for (let i = 0; i < n; i++) {
    const count = [0, 1, 5, 60][random() % 4];
    for (let k = 0; k < count; k++) keys.push(random() >>> 0);
    offsets[i + 1] = keys.length;
  }
  return { docs, offsets, keys: Uint32Array.from(keys) };
}

const plain = (p: PackedSets) => ({ docs: Array.from(p.docs), offsets: Array.from(p.offsets), keys: Array.from(p.keys) });

describe('PackedSetsJoin', () => {
  it(`is concatSets of the parts added so far after every add, shared or not, and leaves what it packed before as it was (seed ${SEED}; SIMSIFT_JOIN_SEED to repeat)`, () => {
    for (const shared of [true, false]) {
      const random = mulberry32(SEED);
      const join = new PackedSetsJoin(shared);
      const parts: PackedSets[] = [];
      const before: Array<{ packed: PackedSets; want: ReturnType<typeof plain> }> = [];
      let next = 0;
      for (let step = 0; step < 30; step++) {
        const part = randomPart(random, next);
        next += part.docs.length;
        // Now and then an expectation of the keys in all, sometimes far off (room it takes, or not).
        join.add(part, [0, 0, 10, 1e6, Number.NaN][random() % 5]);
        parts.push(part);
        const packed = join.packed();
        const want = plain(concatSets(parts));
        expect(plain(packed), `seed ${SEED}, shared ${shared}, after ${step + 1} adds`).toEqual(want);
        expect([join.count, join.keyCount]).toEqual([want.docs.length, want.keys.length]);
        if (shared) expect(packed.keys.buffer instanceof SharedArrayBuffer).toBe(true);
        before.push({ packed, want });
      }
      for (const [i, { packed, want }] of before.entries()) expect(plain(packed), `seed ${SEED}, shared ${shared}, packed after add ${i + 1}`).toEqual(want);
    }
  });
});
