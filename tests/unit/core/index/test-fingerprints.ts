/** Seeded fingerprint generators and a brute-force reference shared by the index tests. */
import { hamming } from '../../../../src/core/simhash/fingerprint64.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';

export interface Fingerprints {
  hi: Uint32Array;
  lo: Uint32Array;
}

/** Flips `flips` distinct random bits of (hi, lo), written to position `at` of the arrays. */
export function flipBits(fp: Fingerprints, at: number, flips: number, rnd: () => number): void {
  let mask = 0n;
  while (countBits(mask) < flips) mask |= 1n << BigInt(rnd() & 63);
  fp.hi[at] = (fp.hi[at] ^ Number(mask >> 32n)) >>> 0;
  fp.lo[at] = (fp.lo[at] ^ Number(mask & 0xffffffffn)) >>> 0;
}

function countBits(x: bigint): number {
  let c = 0;
  for (; x > 0n; x >>= 1n) c += Number(x & 1n);
  return c;
}

/**
 * `random` random fingerprints followed by `planted` copies of random earlier ones with 0..maxFlips
 * flipped bits (so there are pairs at every distance up to maxFlips, and duplicates).
 */
export function plantedSet(random: number, planted: number, maxFlips: number, seed: number): Fingerprints {
  const rnd = mulberry32(seed);
  const n = random + planted;
  const fp = { hi: new Uint32Array(n), lo: new Uint32Array(n) };
  for (let i = 0; i < random; i++) {
    fp.hi[i] = rnd();
    fp.lo[i] = rnd();
  }
  for (let i = random; i < n; i++) {
    const src = rnd() % i;
    fp.hi[i] = fp.hi[src];
    fp.lo[i] = fp.lo[src];
    flipBits(fp, i, rnd() % (maxFlips + 1), rnd);
  }
  return fp;
}

/** Every pair within k as sorted "a b d" strings: the slow, obviously correct reference. */
export function bruteForcePairs(fp: Fingerprints, k: number): string[] {
  const out: string[] = [];
  for (let a = 0; a < fp.hi.length; a++) {
    for (let b = a + 1; b < fp.hi.length; b++) {
      const d = hamming(fp.hi[a], fp.lo[a], fp.hi[b], fp.lo[b]);
      if (d <= k) out.push(`${a} ${b} ${d}`);
    }
  }
  return out;
}

/** A pair list as "a b d" strings in (a, b) order, failing on a >= b. */
export function pairStrings(list: { a: Uint32Array; b: Uint32Array; distance: Uint8Array; count: number }): string[] {
  const idx = Array.from({ length: list.count }, (_, i) => i);
  idx.sort((x, y) => list.a[x] - list.a[y] || list.b[x] - list.b[y]);
  return idx.map((i) => {
    if (list.a[i] >= list.b[i]) throw new Error(`pair not ordered: ${list.a[i]} ${list.b[i]}`);
    return `${list.a[i]} ${list.b[i]} ${list.distance[i]}`;
  });
}
