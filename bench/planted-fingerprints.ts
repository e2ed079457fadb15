/**
 * The team's planted fingerprint benchmark (`pairs-cli`, `dask`): n fingerprints, 90% random,
 * 10% copies of a random one of those with 1-3 distinct bits flipped, from one seed, so every bench
 * searches the same fingerprints at the same n.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mulberry32 as makeRandom } from '../tests/fixtures/mulberry32.ts';

const DATA = join(dirname(fileURLToPath(import.meta.url)), '.data');

/** The fingerprints as hi/lo halves; copy p is row `random + p`, planted from row `plantedFrom[p]`. */
export interface PlantedFingerprints {
  hi: Uint32Array;
  lo: Uint32Array;
  random: number;
  plantedFrom: Uint32Array;
}

/** n planted fingerprints (seed 20261122). */
export function plantedFingerprints(n: number): PlantedFingerprints {
  const rnd = makeRandom(20261122);
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  const random = n - Math.floor(n / 10);
  const plantedFrom = new Uint32Array(n - random);
  for (let i = 0; i < random; i++) {
    hi[i] = rnd();
    lo[i] = rnd();
  }
  for (let p = 0; p < plantedFrom.length; p++) {
    const src = rnd() % random;
    plantedFrom[p] = src;
    const flips = 1 + (rnd() % 3);
    // Distinct bits: set them in a mask until it holds `flips` of them.
    let fh = 0;
    let fl = 0;
    let set = 0;
    while (set < flips) {
      const bit = rnd() & 63;
      const m = 1 << (bit & 31);
      if (bit < 32 ? fh & m : fl & m) continue;
      if (bit < 32) fh |= m;
      else fl |= m;
      set++;
    }
    hi[random + p] = (hi[src] ^ fh) >>> 0;
    lo[random + p] = (lo[src] ^ fl) >>> 0;
  }
  return { hi, lo, random, plantedFrom };
}

/**
 * bench/.data/planted-N.txt, 16 hex digits a line (what `simsift pairs` and the Dask job both read),
 * written on first use (untimed) and reused after; written beside and renamed, so it is whole or absent.
 */
export function plantedFingerprintFile(n: number): string {
  const file = join(DATA, `planted-${n}.txt`);
  if (existsSync(file)) return file;
  mkdirSync(DATA, { recursive: true });
  const { hi, lo } = plantedFingerprints(n);
  const lines = new Array<string>(n);
  for (let i = 0; i < n; i++) lines[i] = hi[i].toString(16).padStart(8, '0') + lo[i].toString(16).padStart(8, '0');
  writeFileSync(`${file}.tmp`, lines.join('\n') + '\n');
  renameSync(`${file}.tmp`, file);
  return file;
}
