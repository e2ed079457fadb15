/** Wording of a pair's size ratio and containment, shown beside its Jaccard (sets ignore how often a text repeats). */

/** A size ratio at or above this is called out: Jaccard alone would hide it. */
export const UNEVEN_RATIO = 1.5;

/** How the two texts' lengths compare. */
export interface LengthComparison {
  /** Longer ÷ shorter (Infinity when one is empty, 1 when both are). */
  ratio: number;
  /** "1.00×", "10.0×", "∞". */
  ratioText: string;
  /** "B is 10.0× as long as A (21,630 vs 2,163 characters)", or "Same length (2,163 characters)". */
  detail: string;
  /** True when the ratio is large enough to say out loud. */
  uneven: boolean;
}

const chars = (n: number) => `${n.toLocaleString('en')} character${n === 1 ? '' : 's'}`;

/** Compares the lengths (in characters) of texts A and B. */
export function compareLengths(lengthA: number, lengthB: number): LengthComparison {
  const longer = Math.max(lengthA, lengthB);
  const shorter = Math.min(lengthA, lengthB);
  const ratio = shorter === 0 ? (longer === 0 ? 1 : Infinity) : longer / shorter;
  const ratioText = !Number.isFinite(ratio) ? '∞' : ratio < 10 ? `${ratio.toFixed(2)}×` : `${ratio.toFixed(1)}×`;
  const detail =
    lengthA === lengthB
      ? `Same length (${chars(lengthA)})`
      : `${lengthA > lengthB ? 'A' : 'B'} is ${ratioText} as long as ${lengthA > lengthB ? 'B' : 'A'} (${lengthA > lengthB ? `${chars(lengthA)} vs ${lengthB.toLocaleString('en')}` : `${chars(lengthB)} vs ${lengthA.toLocaleString('en')}`})`;
  return { ratio, ratioText, detail, uneven: ratio >= UNEVEN_RATIO };
}
