import { describe, expect, it } from 'vitest';
import { commonFromJaccard, ContainedBuffer, containmentSizesAllow, DEFAULT_CONTAINMENT, leastOuterSize, PassageCollector, passagesNeeded, samplePassages } from '../../../../src/core/groups/contained-pairs.ts';
import { containmentCandidates, findContainedPairs } from '../../../../src/core/groups/containment-candidates.ts';
import { intersectionSize } from '../../../../src/core/simhash/simhash.ts';
import { mulberry32 } from '../../../fixtures/mulberry32.ts';

const sorted = (keys: Iterable<number>) => Uint32Array.from(new Set(keys)).sort();

/** Random sets: wholes, excerpts of them (a share of their keys), wholes plus an appendix, and unrelated sets. */
function corpus(seed: number): Uint32Array[] {
  const random = mulberry32(seed);
  const sets: Uint32Array[] = [];
  for (let w = 0; w < 30; w++) {
    const whole = Array.from({ length: 300 + (random() % 1500) }, () => random());
    sets.push(sorted(whole));
    const share = 0.3 + (random() % 300) / 1000;
    const start = random() % Math.floor(whole.length * (1 - share));
    sets.push(sorted(whole.slice(start, start + Math.floor(whole.length * share))));
    // An excerpt with a few words changed: containment just above or below 0.9.
    const edited = whole.slice(0, Math.floor(whole.length / 2)).map((k) => (random() % 100 < 8 ? random() : k));
    sets.push(sorted(edited));
    sets.push(sorted([...whole, ...Array.from({ length: 200 + (random() % 800) }, () => random())]));
  }
  return sets;
}

/** The definition, pair by pair: A (the smaller set, on equal sizes the lower id, with `minPassages` passages) in B. */
function bruteForce(sets: Uint32Array[], threshold: number, jaccardThreshold: number): string[] {
  const out: string[] = [];
  for (let a = 0; a < sets.length; a++) {
    if (samplePassages(sets[a]).length < DEFAULT_CONTAINMENT.minPassages) continue;
    for (let b = 0; b < sets.length; b++) {
      const sa = sets[a].length;
      const sb = sets[b].length;
      if (a === b || sa === 0 || sb < sa || (sb === sa && b < a)) continue;
      const c = intersectionSize(sets[a], sets[b]);
      if (c / sa >= threshold && c / (sa + sb - c) < jaccardThreshold) out.push(`${a}>${b}`);
    }
  }
  return out.sort();
}

const found = (sets: Uint32Array[], options = DEFAULT_CONTAINMENT) => {
  const { pairs } = findContainedPairs(sets, options);
  return Array.from({ length: pairs.count }, (_, i) => `${pairs.inner[i]}>${pairs.outer[i]}`).sort();
};

describe('findContainedPairs', () => {
  it('finds every contained pair that exact counting finds, and nothing else, on random corpora', () => {
    for (const seed of [1, 2, 3]) {
      const sets = corpus(seed);
      const truth = bruteForce(sets, DEFAULT_CONTAINMENT.threshold, DEFAULT_CONTAINMENT.jaccardThreshold);
      expect(truth.length).toBeGreaterThan(40);
      expect(found(sets)).toEqual(truth);
    }
  });

  it('reports the smaller set as the inner one, with exact containment and Jaccard', () => {
    const whole = sorted(Array.from({ length: 1000 }, (_, i) => i * 7919 * 8));
    const part = whole.slice(100, 500);
    const { pairs } = findContainedPairs([whole, part]);
    expect(pairs.count).toBe(1);
    expect([pairs.inner[0], pairs.outer[0]]).toEqual([1, 0]);
    expect(pairs.containment[0]).toBe(1);
    expect(pairs.jaccard[0]).toBeCloseTo(0.4, 6);
  });

  it('leaves near-duplicates (Jaccard at or above the threshold) to the near-duplicate relation', () => {
    const whole = sorted(Array.from({ length: 1000 }, (_, i) => i * 7919 * 8));
    expect(found([whole, whole.slice(0, 900)])).toEqual([]);
    expect(found([whole, whole.slice(0, 700)])).toEqual(['1>0']);
  });

  it('is off at threshold 0, skips excluded documents, and finds a part inside many copies of its whole', () => {
    const whole = sorted(Array.from({ length: 1000 }, (_, i) => i * 7919 * 8));
    const part = whole.slice(0, 400);
    expect(found([whole, part], { ...DEFAULT_CONTAINMENT, threshold: 0 })).toEqual([]);
    expect(findContainedPairs([whole, part], DEFAULT_CONTAINMENT, (d) => d !== 1).pairs.count).toBe(0);
    // Every passage of the part is in 201 documents: no passage is too common to count (a licence
    // inside hundreds of copyright files is contained in each of them).
    const many = [part, ...Array.from({ length: 200 }, () => whole)];
    const { pairs } = findContainedPairs(many);
    expect(pairs.count).toBe(200);
    expect(Array.from(pairs.inner).every((d) => d === 0)).toBe(true);
  });

  it('proposes a pair from the rarest passages only, and still finds every contained pair sharing common ones', () => {
    // A part made of passages common to every document, and a rare tail only its whole holds.
    const common = sorted(Array.from({ length: 300 }, (_, i) => i * 7919 * 8));
    const tail = sorted(Array.from({ length: 100 }, (_, i) => (i + 5000) * 7919 * 8));
    const part = sorted([...common, ...tail]);
    const whole = sorted([...part, ...Array.from({ length: 600 }, (_, i) => (i + 9000) * 7919 * 8)]);
    const others = Array.from({ length: 50 }, (_, o) => sorted([...common, ...Array.from({ length: 700 }, (_, i) => (i + 20000 + o * 1000) * 7919 * 8)]));
    expect(found([part, whole, ...others])).toEqual(['0>1']);
  });
});

/** Whether a key is one of the passages the search samples (DEFAULT_CONTAINMENT.sampleBits). */
const sampled = (k: number) => (k & ((1 << DEFAULT_CONTAINMENT.sampleBits) - 1)) === 0;

/**
 * Whether A's sample proposes `A>B` (A shares `passagesNeeded` of its sampled passages with B). Two
 * overlapping excerpts of one whole can be contained at T while fewer of the small one's passages lie in
 * the other (65 keys, 59 in common, 5 of 9 passages shared where 6 are needed): the sample's miss by design.
 */
function sampleProposes(sets: Uint32Array[], pair: string): boolean {
  const [a, b] = pair.split('>').map(Number) as [number, number];
  const own = samplePassages(sets[a]!);
  const other = new Set(samplePassages(sets[b]!));
  const shared = Array.from(own).filter((k) => other.has(k)).length;
  return shared >= passagesNeeded(own.length, DEFAULT_CONTAINMENT.threshold);
}

/**
 * A random corpus whose contained pairs of an excerpt and its whole the passage sample is sure to propose, so the search must equal
 * the definition exactly: an edited excerpt changes only keys outside the sample (its containment
 * anywhere around T while every passage of it is in its whole) or one passage (which every sample size
 * allows); wholes with an appendix; excerpts whose Jaccard is around the near-duplicate threshold (the
 * size rule's edge); copies of a whole's size with a few keys outside the sample changed (never contained);
 * unrelated sets.
 */
function controlledCorpus(random: () => number): Uint32Array[] {
  const fresh = (inSample: boolean) => {
    for (;;) {
      const k = random();
      if (sampled(k) === inSample) return k;
    }
  };
  const sets: Uint32Array[] = [];
  for (let w = 0; w < 12; w++) {
    const whole = Array.from(sorted(Array.from({ length: 150 + (random() % 1100) }, () => random())));
    sets.push(Uint32Array.from(whole));
    const slice = (share: number) => {
      const length = Math.max(1, Math.floor(whole.length * share));
      const start = random() % (whole.length - length + 1);
      return whole.slice(start, start + length);
    };
    sets.push(sorted(slice(0.3 + (random() % 660) / 1000)));
    sets.push(sorted(slice(0.75 + (random() % 100) / 1000)));
    // Edited: one excerpt of any share, and one of nearly the whole at containment about T (its
    // Jaccard then about the near-duplicate threshold: where the size rule is tightest).
    for (const [share, most] of [[0.3 + (random() % 700) / 1000, 160], [0.95 + (random() % 50) / 1000, 70 + (random() % 50)]]) {
      const edited = slice(share);
      const changes = Math.floor((edited.length * (random() % most)) / 1000);
      for (let c = 0; c < changes; c++) {
        const at = random() % edited.length;
        if (!sampled(edited[at])) edited[at] = fresh(false);
      }
      sets.push(sorted(edited));
    }
    const onePassage = slice(0.4 + (random() % 500) / 1000);
    const at = onePassage.findIndex(sampled);
    if (at >= 0) onePassage[at] = fresh(true);
    sets.push(sorted(onePassage));
    sets.push(sorted([...whole, ...Array.from({ length: 1 + (random() % whole.length) }, () => random())]));
    // Changed outside the sample only, as the edited excerpts: every excerpt of the whole keeps all its
    // passages in the sibling too, so the pair is proposed and the exact count decides (a changed
    // passage could take an excerpt's sample below what it needs while its containment stays above T).
    const sibling = whole.slice();
    for (let c = 0; c < whole.length / 20; c++) {
      const at = random() % whole.length;
      if (!sampled(sibling[at])) sibling[at] = fresh(false);
    }
    sets.push(sorted(sibling));
  }
  for (let u = 0; u < 6; u++) sets.push(sorted(Array.from({ length: 20 + (random() % 800) }, () => random())));
  return sets;
}

const CONTAINED_SEED = Number(process.env.SIMSIFT_CONTAINED_SEED ?? Date.now() % 2 ** 31);

describe('containmentCandidates', () => {
  it('counts the passages a candidate shares by reading its list once against the inner one’s marks, not by a merge of both lists per pair', () => {
    // A's 40 passages lie in each of 30 larger documents, each with 60 passages of its own: A is searched
    // against the 30 (the larger ones share too few with each other to be searched at all).
    const a = Array.from({ length: 40 }, (_, i) => 8 * (i + 1));
    const docs = [a, ...Array.from({ length: 30 }, (_, b) => [...a, ...Array.from({ length: 60 }, (_, i) => 8 * (1000 + 100 * b + i))])];
    const collector = new PassageCollector();
    docs.forEach((keys, d) => collector.add(d, sorted(keys)));
    const { candidates, stats } = containmentCandidates(docs.length, collector.packed());
    expect([candidates.count, stats.compared]).toEqual([30, 30]);
    // Each candidate's list read once at most, A's marked and cleared once: a merge stepped over both
    // lists for every pair (30 x 64 entries here).
    expect(stats.merged).toBeLessThanOrEqual(30 * 40 + 2 * 40);
  });
});

describe('findContainedPairs against the definition', () => {
  it(`finds every contained pair its passage sample proposes and nothing outside the definition, against brute force on small random corpora (seed ${CONTAINED_SEED}; SIMSIFT_CONTAINED_SEED to repeat)`, () => {
    console.log(`contained-pairs: seed ${CONTAINED_SEED}`);
    const random = mulberry32(CONTAINED_SEED);
    let total = 0;
    for (let c = 0; c < 10; c++) {
      const sets = controlledCorpus(random);
      const truth = bruteForce(sets, DEFAULT_CONTAINMENT.threshold, DEFAULT_CONTAINMENT.jaccardThreshold);
      const got = found(sets);
      // Nothing found is outside the definition, and every pair whose sample must propose it is found.
      expect(got.filter((pair) => !truth.includes(pair)), `seed ${CONTAINED_SEED}, corpus ${c}: found, not contained`).toEqual([]);
      const required = truth.filter((pair) => sampleProposes(sets, pair));
      expect(required.filter((pair) => !got.includes(pair)), `seed ${CONTAINED_SEED}, corpus ${c}: proposed by the sample, not found`).toEqual([]);
      total += required.length;
    }
    expect(total).toBeGreaterThan(100);
  });
});

describe('containmentSizesAllow', () => {
  it('drops a pair by its sizes only when no count |A ∩ B| could pass the exact check, and drops pairs of equal large sizes', () => {
    const wrong: string[] = [];
    let dropped = 0;
    const buffer = new ContainedBuffer();
    for (const [threshold, jaccardThreshold] of [[0.9, 0.8], [0.5, 0.8], [0.7, 0.5], [0.95, 0.9], [0.8, 0.8], [0.99, 0.95]]) {
      const options = { threshold, jaccardThreshold };
      for (let inner = 1; inner <= 150; inner++) {
        for (let outer = inner; outer <= 320; outer++) {
          if (containmentSizesAllow(inner, outer, options)) continue;
          dropped++;
          // Counts below T |A| fail the containment test; the check passes none of the others either.
          for (let common = inner; common >= 0 && common / inner >= threshold - 1e-6; common--) {
            if (buffer.judge(0, 1, common, inner, outer, options)) wrong.push(`${common} of ${inner} in ${outer} at ${threshold}/${jaccardThreshold}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(dropped).toBeGreaterThan(500);
    expect(containmentSizesAllow(1000, 1000, DEFAULT_CONTAINMENT)).toBe(false); // 900 shared is a Jaccard of 0.82
    expect(containmentSizesAllow(900, 1000, DEFAULT_CONTAINMENT)).toBe(true);
    expect(containmentSizesAllow(0, 1000, DEFAULT_CONTAINMENT)).toBe(true); // a size unknown: no opinion
  });
});

describe('ContainedBuffer', () => {
  it('gives the judged pairs sorted by (inner, outer), each with its own measures, in whatever order they were judged', () => {
    const random = mulberry32(3977);
    for (let t = 0; t < 20; t++) {
      // Distinct pairs, as candidates are.
      const byPair = new Map(Array.from({ length: random() % 60 }, () => [random() % 30, 30 + (random() % 30), 90 + (random() % 11)]).map((j) => [`${j[0]} ${j[1]}`, j]));
      const judged = [...byPair.values()];
      // Sorted already (the candidate stage's order), or not.
      if (t % 2) judged.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
      const buffer = new ContainedBuffer();
      for (const [a, b, common] of judged) buffer.judge(a, b, common, 100, 200, DEFAULT_CONTAINMENT);
      const pairs = buffer.pairs();
      const got = Array.from({ length: pairs.count }, (_, i) => [pairs.inner[i], pairs.outer[i], Math.round(pairs.containment[i] * 100)]);
      expect(got, `case ${t}`).toEqual(judged.slice().sort((x, y) => x[0] - y[0] || x[1] - y[1]));
    }
  });
});

describe('leastOuterSize', () => {
  it('is where containmentSizesAllow turns true for good, from the inner size up (the candidate walk’s one comparison)', () => {
    const wrong: string[] = [];
    for (const [threshold, jaccardThreshold] of [[0.9, 0.8], [0.5, 0.8], [0.7, 0.5], [0.95, 0.9], [0.8, 0.8], [0.99, 0.95], [0.3, 0.99], [1, 0.8], [0.9, 0]]) {
      const options = { threshold, jaccardThreshold };
      for (const inner of [1, 2, 3, 7, 10, 99, 100, 101, 1379, 5000, 123457]) {
        const least = leastOuterSize(inner, options);
        for (let outer = inner; outer <= Math.min(inner * 4 + 50, 2 * inner + 2000); outer++) {
          if ((outer >= least) !== containmentSizesAllow(inner, outer, options)) wrong.push(`${inner} in ${outer} at ${threshold}/${jaccardThreshold}: least ${least}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(leastOuterSize(1000, DEFAULT_CONTAINMENT)).toBeGreaterThan(1000); // equal large sizes never
    expect(leastOuterSize(10, { threshold: 0.9, jaccardThreshold: 0 })).toBe(Infinity);
  });
});

describe('commonFromJaccard', () => {
  it('gives |A ∩ B| back from a Jaccard measured as verification measures it, for every count', () => {
    const random = mulberry32(3901);
    const wrong: string[] = [];
    for (let t = 0; t < 3000; t++) {
      const sizeA = 1 + (t < 1500 ? random() % 80 : random() % 300_000);
      const sizeB = 1 + (t < 1500 ? random() % 80 : random() % 300_000);
      const most = Math.min(sizeA, sizeB);
      for (const common of t < 1500 ? Array.from({ length: most + 1 }, (_, c) => c) : [0, most, random() % (most + 1)]) {
        const jaccard = common / (sizeA + sizeB - common);
        if (commonFromJaccard(jaccard, sizeA, sizeB) !== common) wrong.push(`${common} of ${sizeA}, ${sizeB}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('accepts a Jaccard only when its count gives it back exactly: never a wrong count', () => {
    expect(commonFromJaccard(0.5, 0, 10)).toBe(-1); // a size unknown
    expect(commonFromJaccard(Number.NaN, 10, 10)).toBe(-1); // not measured
    expect(commonFromJaccard(1.5, 10, 10)).toBe(-1);
    expect(commonFromJaccard(0.5 + 2 ** -40, 10, 20)).toBe(-1); // 10 shared gives 0.5, not this
    expect(commonFromJaccard(1, 10, 20)).toBe(-1); // sets of different sizes are never identical
    const random = mulberry32(3902);
    const wrong: string[] = [];
    for (let t = 0; t < 20_000; t++) {
      const sizeA = 1 + (random() % 100_000);
      const sizeB = 1 + (random() % 100_000);
      const common = random() % (Math.min(sizeA, sizeB) + 1);
      const exact = common / (sizeA + sizeB - common);
      // A Jaccard kept as a float32, or paired with sizes off by one: the count comes back, or nothing.
      for (const [jaccard, a, b] of [[Math.fround(exact), sizeA, sizeB], [exact, sizeA + 1, sizeB], [exact, sizeA, sizeB - 1]]) {
        const back = commonFromJaccard(jaccard, a, b);
        if (back >= 0 && back / (a + b - back) !== jaccard) wrong.push(`${jaccard} of ${a}, ${b}: ${back}`);
        if (back >= 0 && a === sizeA && b === sizeB && back !== common) wrong.push(`${jaccard} of ${a}, ${b}: ${back} not ${common}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('PassageCollector', () => {
  it('packs each document’s sampled keys (low sampleBits zero), in order, however its room grows', () => {
    const random = mulberry32(3904);
    for (const bits of [0, 3, 5]) {
      const collector = new PassageCollector(bits, 1);
      const want: number[][] = [];
      const docs: number[] = [];
      for (let d = 0; d < 60; d += 1 + (random() % 3)) {
        const set = sorted(Array.from({ length: [0, 1, 7, 300, 5000][d % 5] }, () => random()));
        collector.add(d, set);
        docs.push(d);
        want.push(Array.from(set).filter((k) => (k & ((1 << bits) - 1)) === 0));
      }
      const packed = collector.packed();
      expect(Array.from(packed.docs)).toEqual(docs);
      expect(docs.map((_, i) => Array.from(packed.keys.subarray(packed.offsets[i], packed.offsets[i + 1])))).toEqual(want);
      expect(packed.keys.length).toBe(packed.offsets[docs.length]);
    }
    expect(Array.from(samplePassages(Uint32Array.of(0, 3, 8, 9, 16, 0xfffffff8)))).toEqual([0, 8, 16, 0xfffffff8]);
  });
});

const COLLECTOR_SEED = Number(process.env.SIMSIFT_COLLECTOR_SEED ?? Date.now() % 2 ** 31);

describe('PassageCollector reused (reset between batches, as each ingest worker keeps one)', () => {
  it(`packs each batch as a fresh collector would, and leaves the batches packed before untouched (seed ${COLLECTOR_SEED}; SIMSIFT_COLLECTOR_SEED to repeat)`, () => {
    const random = mulberry32(COLLECTOR_SEED);
    const collector = new PassageCollector(3, 1);
    let model: { docs: number[]; keys: number[][] } = { docs: [], keys: [] };
    const packedBefore: Array<{ packed: ReturnType<PassageCollector['packed']>; keys: number[][] }> = [];
    const steps: string[] = [];
    for (let step = 0; step < 400; step++) {
      const op = random() % 10;
      if (op < 6) {
        const doc = (model.docs.at(-1) ?? -1) + 1 + (random() % 3);
        const set = sorted(Array.from({ length: [0, 2, 40, 900][random() % 4] }, () => random()));
        collector.add(doc, set);
        model.docs.push(doc);
        model.keys.push(Array.from(set).filter((k) => (k & 7) === 0));
        steps.push(`add(${doc}, ${set.length} keys)`);
      } else if (op < 9) {
        const packed = collector.packed();
        steps.push('packed');
        const got = { docs: Array.from(packed.docs), keys: model.docs.map((_, i) => Array.from(packed.keys.subarray(packed.offsets[i], packed.offsets[i + 1]))) };
        expect(got, `seed ${COLLECTOR_SEED}, after ${steps.join(', ')}`).toEqual(model);
        packedBefore.push({ packed, keys: got.keys });
      } else {
        collector.reset();
        model = { docs: [], keys: [] };
        steps.push('reset');
      }
    }
    // Batches packed earlier are copies: later batches written into the same memory leave them as they were.
    for (const { packed, keys } of packedBefore) {
      expect(keys.map((_, i) => Array.from(packed.keys.subarray(packed.offsets[i], packed.offsets[i + 1]))), `seed ${COLLECTOR_SEED}`).toEqual(keys);
    }
  });
});

describe('passagesNeeded', () => {
  it('asks 2/3 of T of a small sample, and no fewer than four spreads below T of a large one', () => {
    expect(passagesNeeded(4, 0.9)).toBe(3);
    expect(passagesNeeded(10, 0.9)).toBe(6);
    expect(passagesNeeded(100, 0.9)).toBe(78);
    expect(passagesNeeded(1000, 0.9)).toBe(863);
    for (let s = 1; s < 2000; s++) expect(passagesNeeded(s, 0.9)).toBeGreaterThanOrEqual(Math.ceil(0.6 * s - 1e-9));
  });
});
